import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// `almanac episode play` through the real binaries: fake players (scripts named mpv, vlc,
/// xdg-open or anything) record the arguments they were started with.
@Suite(.onTestThreads, .timeLimit(.hang)) struct EpisodePlayTests {
    let feed: AudioFeed
    let bus: PrivateBus
    /// Where the fake players live (each test puts in PATH only the ones it wants).
    let players: URL
    /// Where they write what they were given: `<name>.args`, one argument a line.
    let records: URL

    init() throws {
        feed = try AudioFeed()
        bus = try PrivateBus()
        players = bus.directory.appendingPathComponent("players")
        records = bus.directory.appendingPathComponent("played")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
    }

    /// A fake player `name` in its own folder (returned, for PATH): a link to
    /// Tests/Fixtures/fake-player.sh. (A script written here could be open for writing in a
    /// process another test forks meanwhile, and then exec fails with ETXTBSY.)
    func install(_ name: String) throws -> String {
        let folder = players.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(name).path,
                                                   withDestinationPath: SourceTree.path("Tests/Fixtures/fake-player.sh"))
        return folder.path
    }

    /// What player `name` was started with (waits for it), without the END mark.
    func arguments(of name: String) async throws -> [String] {
        let file = records.appendingPathComponent("\(name).args")
        try #require(await eventually { FileManager.default.fileExists(atPath: file.path) }, "\(name) was not started")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        try FileManager.default.removeItem(at: file)
        return Array(lines.prefix { $0 != "END" })
    }

    func play(_ arguments: [String], path: [String]) async throws -> Tool.Result {
        try await almanac(["episode", "play"] + arguments, bus: bus,
                          environment: ["PATH": path.joined(separator: ":"), "ALMANAC_TEST_PLAYED": records.path])
    }

    @Test func playsFromTheSavedPositionInTheFirstPlayerInstalled() async throws {
        try feed.publish([("Alpha", "/audio/alpha?size=1000"), ("Beta", "/audio/beta?size=1000"), ("Gamma", "/audio/gamma?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, episodes) = try await feed.subscribe(on: bus)
        let alpha = try #require(episodes["Alpha"])
        #expect(try await almanac(["episode", "position", alpha, "12:34"], bus: bus).status == 0)
        let (mpv, vlc, xdgOpen) = (try install("mpv"), try install("vlc"), try install("xdg-open"))

        // mpv first, told where to start; the line says what was played where.
        var result = try await play([alpha], path: [xdgOpen, vlc, mpv])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output == "Playing “Alpha” of The Download Show in mpv from 12:34.\n")
        #expect(try await arguments(of: "mpv") == ["--start=754", feed.base + "/audio/alpha?size=1000"])
        // No mpv: vlc, with its own option.
        result = try await play([alpha], path: [xdgOpen, vlc])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(try await arguments(of: "vlc") == ["--start-time=754", feed.base + "/audio/alpha?size=1000"])
        // Only xdg-open, which cannot be told where: the line says so.
        result = try await play([alpha], path: [xdgOpen])
        #expect(result.output.contains("from the start: xdg-open cannot be told to start at 12:34"), "\(result.output)")
        #expect(try await arguments(of: "xdg-open") == [feed.base + "/audio/alpha?size=1000"])
        // None at all: a clear refusal.
        result = try await play([alpha], path: [players.path])
        #expect(result.status == 65)
        #expect(result.errorOutput.contains("no media player found"), "\(result.errorOutput)")

        // A downloaded episode plays from its file; a played one from the start.
        #expect(try await almanac(["episode", "download", try #require(episodes["Beta"])], bus: bus).status == 0)
        #expect(try await almanac(["episode", "played", try #require(episodes["Beta"])], bus: bus).status == 0)
        result = try await play([try #require(episodes["Beta"])], path: [mpv])
        #expect(result.output == "Playing “Beta” of The Download Show in mpv.\n")
        #expect(try await arguments(of: "mpv") == [bus.directory.appendingPathComponent("data/The Download Show/Beta.mp3").path])

        // --next: the newest unplayed episode (Gamma is the newest; once played, Alpha, as Beta is played too).
        result = try await play(["--next"], path: [mpv])
        #expect(result.output.hasPrefix("Playing “Gamma”"), "\(result.output)")
        #expect(try await arguments(of: "mpv") == [feed.base + "/audio/gamma?size=1000"])
        #expect(try await almanac(["episode", "played", try #require(episodes["Gamma"])], bus: bus).status == 0)
        result = try await play(["--next", podcast], path: [mpv])
        #expect(result.output.hasPrefix("Playing “Alpha”"), "\(result.output)")
        #expect(try await arguments(of: "mpv") == ["--start=754", feed.base + "/audio/alpha?size=1000"])
        #expect(try await almanac(["episode", "played", alpha], bus: bus).status == 0)
        result = try await play(["--next"], path: [mpv])
        #expect(result.status == 65)
        #expect(result.errorOutput.contains("there is no unplayed episode"), "\(result.errorOutput)")
        // Told where to resume, a played episode is unplayed again and plays from there.
        #expect(try await almanac(["episode", "position", try #require(episodes["Beta"]), "5:00"], bus: bus).status == 0)
        result = try await play(["--next"], path: [mpv])
        #expect(result.output == "Playing “Beta” of The Download Show in mpv from 5:00.\n", "\(result.output)")
        #expect(try await arguments(of: "mpv") == ["--start=300", bus.directory.appendingPathComponent("data/The Download Show/Beta.mp3").path])

        // The record `play` reads, asked by busctl: any episode of the library, by id.
        let record = try await busctlCall(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, BusContract.Podcasts1.getEpisode.name,
                                          ["s", alpha], options: ["--json=short"])
        #expect(record.status == 0 && record.output.contains("\"podcastTitle\":{\"type\":\"s\",\"data\":\"The Download Show\"}")
                && record.output.contains("\"title\":{\"type\":\"s\",\"data\":\"Alpha\"}"), "\(record.output) \(record.errorOutput)")
        let unknown = try await busctlCall(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, BusContract.Podcasts1.getEpisode.name, ["s", "nonesuch"])
        #expect(unknown.status != 0 && unknown.errorOutput.contains("There is no episode 'nonesuch'"), "\(unknown.errorOutput)")

        // An unknown episode: refused, with where to find ids.
        result = try await play(["nonesuch"], path: [mpv])
        #expect(result.status == 65)
        #expect(result.errorOutput.contains("there is no episode 'nonesuch'") && result.errorOutput.contains("almanac episodes"), "\(result.errorOutput)")
        #expect(!daemon.process.hasExited)
    }

    @Test func nextPlaysTheHeadOfTheQueueBeforeTheNewestUnplayed() async throws {
        try feed.publish([("Alpha", "/audio/alpha?size=1000"), ("Beta", "/audio/beta?size=1000"), ("Gamma", "/audio/gamma?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, episodes) = try await feed.subscribe(on: bus)
        let (alpha, beta) = (try #require(episodes["Alpha"]), try #require(episodes["Beta"]))
        let mpv = try install("mpv")
        #expect(try await almanac(["queue", "add", beta, alpha], bus: bus).status == 0)
        // The head of the queue, of all podcasts or of the one given.
        var result = try await play(["--next"], path: [mpv])
        #expect(result.output.hasPrefix("Playing “Beta”"), "\(result.output) \(result.errorOutput)")
        #expect(try await arguments(of: "mpv") == [feed.base + "/audio/beta?size=1000"])
        result = try await play(["--next", podcast], path: [mpv])
        #expect(result.output.hasPrefix("Playing “Beta”"), "\(result.output) \(result.errorOutput)")
        #expect(try await arguments(of: "mpv") == [feed.base + "/audio/beta?size=1000"])
        // Played, it leaves the queue: the next head.
        #expect(try await almanac(["episode", "played", beta], bus: bus).status == 0)
        result = try await play(["--next"], path: [mpv])
        #expect(result.output.hasPrefix("Playing “Alpha”"), "\(result.output)")
        #expect(try await arguments(of: "mpv") == [feed.base + "/audio/alpha?size=1000"])
        // An empty queue: the newest unplayed, as before.
        #expect(try await almanac(["queue", "clear"], bus: bus).status == 0)
        result = try await play(["--next"], path: [mpv])
        #expect(result.output.hasPrefix("Playing “Gamma”"), "\(result.output)")
        #expect(try await arguments(of: "mpv") == [feed.base + "/audio/gamma?size=1000"])
        _ = daemon
    }

    @Test func thePlayerSettingNamesAnyCommand() async throws {
        try feed.publish([("Alpha", "/audio/alpha?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await feed.subscribe(on: bus)
        let alpha = try #require(episodes["Alpha"])
        #expect(try await almanac(["episode", "position", alpha, "90"], bus: bus).status == 0)
        let (mine, mpv) = (try install("myplayer"), try install("mpv"))

        // Placeholders replaced, quotes kept together, the audio last when not placed.
        #expect(try await almanac(["settings", "set", "player", "myplayer --at {start} \"two words\""], bus: bus).status == 0)
        #expect(try await almanac(["settings", "get", "player"], bus: bus).output == "myplayer --at {start} \"two words\"\n")
        var result = try await play([alpha], path: [mine, mpv])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(try await arguments(of: "myplayer") == ["--at", "90", "two words", feed.base + "/audio/alpha?size=1000"])
        // A command we do not know, with no {start}: it starts from the beginning, and says so.
        #expect(try await almanac(["settings", "set", "player", "myplayer {media} --quiet"], bus: bus).status == 0)
        result = try await play([alpha], path: [mine])
        #expect(result.output.contains("myplayer cannot be told to start at 1:30"), "\(result.output)")
        #expect(try await arguments(of: "myplayer") == [feed.base + "/audio/alpha?size=1000", "--quiet"])
        // mpv by the setting gets its start option after the user's own.
        #expect(try await almanac(["settings", "set", "player", "mpv --no-video"], bus: bus).status == 0)
        result = try await play([alpha], path: [mpv])
        #expect(try await arguments(of: "mpv") == ["--no-video", "--start=90", feed.base + "/audio/alpha?size=1000"])
        // The named player missing: refused, naming it.
        result = try await play([alpha], path: [mine])
        #expect(result.status == 65)
        #expect(result.errorOutput.contains("the player 'mpv' is not installed"), "\(result.errorOutput)")

        // A command with an open quote is refused and changes nothing; `automatic` goes back.
        result = try await almanac(["settings", "set", "player", "mpv 'oops"], bus: bus)
        #expect(result.status == 65, "\(result.errorOutput)")
        #expect(try await almanac(["settings", "get", "player"], bus: bus).output == "mpv --no-video\n")
        #expect(try await almanac(["settings", "set", "player", "automatic"], bus: bus).status == 0)
        #expect(try await almanac(["settings", "get", "player"], bus: bus).output == "automatic\n")
        result = try await play([alpha], path: [mine, mpv])
        #expect(try await arguments(of: "mpv") == ["--start=90", feed.base + "/audio/alpha?size=1000"])
        #expect(!daemon.process.hasExited)
    }

    /// The program `episode play` runs is the user's choice, not any bus client's: `Submit`
    /// with `player` is refused (naming where the setting lives now) and changes nothing; the
    /// CLI keeps it in its own file, 0600 (docs/security.md, "Programs the user runs").
    @Test func noBusClientChoosesTheProgramEpisodePlayRuns() async throws {
        try feed.publish([("Alpha", "/audio/alpha?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let alpha = try #require(try await feed.subscribe(on: bus).episodes["Alpha"])
        let marker = bus.directory.appendingPathComponent("pwned").path
        let submitted = try await busctlCall(on: bus, BusContract.documentPath(.podcasts), BusContract.documentInterface, BusContract.Document1.submit.name,
                                             ["a{sv}", "1", "player", "s", "/bin/sh -c 'touch \(marker)' sh"])
        #expect(submitted.status != 0 && submitted.errorOutput.contains("cli.conf") && submitted.errorOutput.contains("almanac settings set player"),
                "\(submitted.output) \(submitted.errorOutput)")
        let settings = try await busctlGetProperty(on: bus, BusContract.documentPath(.podcasts), BusContract.Podcasts1.settings)
        #expect(!settings.output.contains("touch"), "\(settings.output)")
        #expect(try await almanac(["settings", "get", "player"], bus: bus).output == "automatic\n")
        // Played: by the first player installed, not the shell.
        let mpv = try install("mpv")
        let result = try await play([alpha], path: [mpv])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(try await arguments(of: "mpv") == [feed.base + "/audio/alpha?size=1000"])
        #expect(!FileManager.default.fileExists(atPath: marker))

        // The user's own word goes to the CLI's file, only the user's to read.
        #expect(try await almanac(["settings", "set", "player", "mpv --no-video"], bus: bus).status == 0)
        let file = bus.directory.appendingPathComponent("config/almanac/cli.conf").path
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\nplayer = mpv --no-video\n"))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600, "\(String(mode, radix: 8))")
        #expect(try await almanac(["settings", "get", "player"], bus: bus).output == "mpv --no-video\n")
        #expect(!daemon.process.hasExited)
    }

    /// A `player` almanacd kept from before is carried over into the CLI's file once, and said.
    @Test func aPlayerTheDaemonKeptIsCarriedOverOnce() async throws {
        try feed.publish([("Alpha", "/audio/alpha?size=1000")])
        var daemon = try await RunningDaemon(bus: bus, .fixtures())
        let alpha = try #require(try await feed.subscribe(on: bus).episodes["Alpha"])
        _ = daemon.stop()
        let keep = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("INSERT OR REPLACE INTO setting (key, value) VALUES ('podcasts.player', 'myplayer --old {media}')")
            db.commit()
            """
        let kept = try await Tool.runDetached("python3", ["-c", keep, bus.directory.appendingPathComponent("state/almanac.sqlite").path])
        try #require(kept.status == 0, "\(kept.errorOutput)")
        daemon = try await RunningDaemon(bus: bus, .fixtures())
        let mine = try install("myplayer")
        var result = try await play([alpha], path: [mine])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.errorOutput.contains("carried over from almanacd: myplayer --old {media}"), "\(result.errorOutput)")
        #expect(try await arguments(of: "myplayer") == ["--old", feed.base + "/audio/alpha?size=1000"])
        // Once: from now on the file says, without a word.
        result = try await play([alpha], path: [mine])
        #expect(result.status == 0 && result.errorOutput.isEmpty, "\(result.errorOutput)")
        _ = try await arguments(of: "myplayer")
        #expect(try await almanac(["settings", "set", "player", "automatic"], bus: bus).status == 0)
        #expect(try await almanac(["settings", "get", "player"], bus: bus).output == "automatic\n")
        #expect(!daemon.process.hasExited)
    }

    /// A feed's enclosure that is not on the web (`file:`, `smb:`) is never handed to a
    /// player (nor to `xdg-open`, which opens anything): refused, saying why.
    @Test func onlyWebAddressesAndDownloadsAreHandedToThePlayer() async throws {
        let items = ["file:///etc/passwd", "smb://host/share/a.mp3"].enumerated().map { index, url in
            "<item><title>Item \(index)</title><guid>i\(index)</guid><enclosure url=\"\(url)\" type=\"audio/mpeg\" length=\"1\"/></item>"
        }.joined()
        try "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Elsewhere</title>\(items)</channel></rss>"
            .write(to: feed.folder.appendingPathComponent("show.xml"), atomically: true, encoding: .utf8)
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let episodes = try await feed.subscribe(on: bus).episodes
        let (mpv, xdgOpen) = (try install("mpv"), try install("xdg-open"))
        for (title, url) in [("Item 0", "file:///etc/passwd"), ("Item 1", "smb://host/share/a.mp3")] {
            let result = try await play([try #require(episodes[title])], path: [xdgOpen, mpv])
            #expect(result.status == 65, "\(result.output)")
            #expect(result.errorOutput.contains("\(url), which is not an http or https address"), "\(result.errorOutput)")
        }
        #expect(!FileManager.default.fileExists(atPath: records.appendingPathComponent("mpv.args").path))
        #expect(!FileManager.default.fileExists(atPath: records.appendingPathComponent("xdg-open.args").path))
        #expect(!daemon.process.hasExited)
    }

    /// A download is saved under an audio or video extension only — from the server's name,
    /// the URL or the type — else `.bin`, whatever a feed or its server names (`.jar`, `.exe`,
    /// `.html`); and a generic opener (`xdg-open`, with no mpv or VLC installed) is never
    /// handed a file that is not named as media, not even one an older Almanac saved as `.jar`.
    @Test func downloadsAreNamedAsMediaAndAnOpenerIsHandedNothingElse() async throws {
        try feed.publish([
            ("Java", "/audio/setup.jar?size=1000&type=application/java-archive"),
            ("Windows", "/audio/run.exe?size=1000&type=application/octet-stream"),
            ("Page", "/audio/page.html?size=1000&type=text/html"),
            ("Told", "/audio/told?size=1000&type=application/java-archive&disposition=attachment;%20filename=%22tool.jar%22"),
            ("Setup.exe", "/audio/setup?size=1000&type=application/x-msdownload"),
            ("Typed", "/audio/typed?size=1000&type=audio/ogg"),
            ("Named", "/audio/named.m4a?size=1000&type=application/java-archive"),
        ])
        var daemon = try await RunningDaemon(bus: bus, .fixtures())
        let episodes = try await feed.subscribe(on: bus).episodes
        let titles = ["Java", "Windows", "Page", "Told", "Setup.exe", "Typed", "Named"]
        let ids = try titles.map { try #require(episodes[$0], "\(episodes)") }
        let downloaded = try await almanac(["episode", "download"] + ids, bus: bus)
        #expect(downloaded.status == 0, "\(downloaded.output) \(downloaded.errorOutput)")
        let folder = bus.directory.appendingPathComponent("data/The Download Show")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["Java.bin", "Named.m4a", "Page.bin", "Setup.exe.bin", "Told.bin", "Typed.ogg", "Windows.bin"], "\(names)")

        // Only xdg-open installed: the media file is opened, the others refused, saying why.
        let xdgOpen = try install("xdg-open")
        var result = try await play([ids[5]], path: [xdgOpen])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(try await arguments(of: "xdg-open") == [folder.appendingPathComponent("Typed.ogg").path])
        for index in [0, 3, 4] {
            result = try await play([ids[index]], path: [xdgOpen])
            #expect(result.status == 65, "\(result.output)")
            #expect(result.errorOutput.contains("which is not named as audio or video: xdg-open would open it"), "\(result.errorOutput)")
        }
        // A file an older Almanac saved as `.jar` is refused too; mpv gets it (it reads the content, not the name).
        _ = daemon.stop()
        let (old, jar) = (folder.appendingPathComponent("Java.bin").path, folder.appendingPathComponent("Java.jar").path)
        try FileManager.default.moveItem(atPath: old, toPath: jar)
        let rename = "import sqlite3, sys\ndb = sqlite3.connect(sys.argv[1])\ndb.execute('UPDATE episode SET file = ? WHERE file = ?', (sys.argv[3], sys.argv[2]))\ndb.commit()"
        let renamed = try await Tool.runDetached("python3", ["-c", rename, bus.directory.appendingPathComponent("state/almanac.sqlite").path, old, jar])
        try #require(renamed.status == 0, "\(renamed.errorOutput)")
        daemon = try await RunningDaemon(bus: bus, .fixtures())
        result = try await play([ids[0]], path: [xdgOpen])
        #expect(result.status == 65 && result.errorOutput.contains("was saved as Java.jar, which is not named as audio or video"), "\(result.errorOutput)")
        #expect(!FileManager.default.fileExists(atPath: records.appendingPathComponent("xdg-open.args").path))
        let mpv = try install("mpv")
        result = try await play([ids[0]], path: [xdgOpen, mpv])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(try await arguments(of: "mpv") == [jar])
        #expect(!daemon.process.hasExited)
    }
}
