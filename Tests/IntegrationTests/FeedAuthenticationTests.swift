import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Feeds behind HTTP Basic authentication through the real binaries: the password in the URL
/// or given once, sent to the feed's own host only, and never shown.
@Suite(.onTestThreads, .timeLimit(.hang)) struct FeedAuthenticationTests {
    let bus: PrivateBus
    let server: FixtureServer
    var base: String { server.baseURL.absoluteString }
    /// Where the server is, for URLs with user info: "127.0.0.1:<port>".
    var host: String { "127.0.0.1:\(server.baseURL.port ?? 0)" }
    /// "s3cret é:x", percent-encoded for a URL.
    let encodedPassword = "s3cret%20%C3%A9%3Ax"

    init() throws {
        bus = try PrivateBus()
        server = try FixtureServer.directory()
    }

    func authLog() throws -> String { try String(contentsOf: server.baseURL.appendingPathComponent("auth-log"), encoding: .utf8) }

    @Test func aFeedBehindAPasswordIsReadAndThePasswordNeverShown() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        // Without the password: the server's refusal, plainly.
        let refused = try await almanac(["podcasts", "subscribe", "\(base)/private/rss2-itunes.xml"], bus: bus)
        #expect(refused.status == 65)
        #expect(refused.errorOutput.contains("HTTP 401"), "\(refused.errorOutput)")

        // In the URL.
        let subscribed = try await almanac(["podcasts", "subscribe", "http://alice:\(encodedPassword)@\(host)/private/rss2-itunes.xml"], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        let shown = "http://alice@\(host)/private/rss2-itunes.xml"
        #expect(try await almanac(["podcasts", "list", "--format", "{{feedURL}}"], bus: bus).output == "\(shown)\n")
        #expect(try await almanac(["podcasts", "refresh"], bus: bus).status == 0)
        #expect(try authLog().contains("/private/rss2-itunes.xml Basic YWxpY2U6czNjcmV0IMOpOng="))

        // Given once: asked for (here on standard input), never on the command line.
        let given = try await Tool.runDetached("/bin/sh", ["-c", "printf 's3cret é:x\\n' | \"$0\" podcasts subscribe --username alice \(base)/private/atom.xml", Binaries.almanac],
                                               environment: bus.environment.merging(["NO_COLOR": "1"]) { $1 })
        #expect(given.status == 0, "\(given.errorOutput)")
        let wrong = try await Tool.runDetached("/bin/sh", ["-c", "printf 'guess\\n' | \"$0\" podcasts subscribe --username alice \(base)/private/podcasting20.xml", Binaries.almanac],
                                               environment: bus.environment)
        #expect(wrong.status == 65 && wrong.errorOutput.contains("HTTP 401"), "\(wrong.errorOutput)")

        // Nothing anyone else sees holds the password: the bus, an export, the daemon's log.
        let state = try await busctlGetProperty(on: bus, BusContract.documentPath(.podcasts), BusContract.Podcasts1.subscriptions)
        let export = try await almanac(["podcasts", "export"], bus: bus)
        let json = try await almanac(["podcasts", "list", "--json"], bus: bus)
        for text in [state.output, export.output, json.output, daemon.log, subscribed.output, given.output] {
            #expect(!text.contains("s3cret") && !text.contains(encodedPassword), "\(text)")
        }
        #expect(state.output.contains("alice@\(host)/private/atom.xml"), "\(state.output)")
        // The shown URL names the podcast too.
        #expect(try await almanac(["podcasts", "unsubscribe", shown], bus: bus).status == 0)
        #expect(!daemon.process.hasExited)
    }

    @Test func thePasswordIsNotSentToAnotherHost() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let subscribed = try await almanac(["podcasts", "subscribe", "http://alice:\(encodedPassword)@\(host)/private-elsewhere/rss2-itunes.xml"], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        let log = try authLog()
        #expect(log.contains("/private-elsewhere/rss2-itunes.xml Basic "), "\(log)")
        #expect(log.contains("/open/rss2-itunes.xml -\n"), "the redirect to another host name carried the password: \(log)")
        #expect(!daemon.process.hasExited)
    }

    /// A feed with no `<title>` is called by its address — without its user name and
    /// password — everywhere a title goes: the bus, the CLI, the OPML export, the download
    /// folder, the player's line and arguments, the log (issue 32 found the password in 16 of 18).
    @Test func anUntitledPrivateFeedIsCalledByItsAddressWithoutThePassword() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let subscribed = try await almanac(["podcasts", "subscribe", "http://alice:\(encodedPassword)@\(host)/private/untitled.xml"], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        let title = "http://\(host)/private/untitled.xml"
        #expect(try await almanac(["podcasts", "list", "--format", "{{title}}"], bus: bus).output == "\(title)\n")
        let episode = try await almanac(["episodes", "--format", "{{id}}"], bus: bus).output.trimmingCharacters(in: .newlines)
        let downloaded = try await almanac(["episode", "download", episode], bus: bus)
        #expect(downloaded.status == 0, "\(downloaded.errorOutput)")

        // Played by a fake player, which writes down its arguments.
        let players = bus.directory.appendingPathComponent("players"), played = bus.directory.appendingPathComponent("played")
        try FileManager.default.createDirectory(at: players, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: played, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: players.appendingPathComponent("mpv").path, withDestinationPath: SourceTree.path("Tests/Fixtures/fake-player.sh"))
        let play = try await almanac(["episode", "play", episode], bus: bus, environment: ["PATH": players.path, "ALMANAC_TEST_PLAYED": played.path])
        #expect(play.status == 0 && play.output.contains("of \(title) in mpv"), "\(play.output) \(play.errorOutput)")
        let arguments = played.appendingPathComponent("mpv.args")
        #expect(await eventually { FileManager.default.fileExists(atPath: arguments.path) })

        let podcasts = BusContract.documentPath(.podcasts)
        var seen = [subscribed.output, play.output, try String(contentsOf: arguments, encoding: .utf8)]
        for command in [["podcasts", "list"], ["podcasts", "list", "--json"], ["episodes"], ["episodes", "--json"], ["episode", "show", episode],
                        ["episode", "show", episode, "--json"], ["podcasts", "export"], ["downloads", "--json"], ["status"]] {
            let result = try await almanac(command, bus: bus)
            #expect(result.status == 0, "\(command): \(result.errorOutput)")
            seen.append(result.output + result.errorOutput)
        }
        seen.append(try await busctlCall(on: bus, podcasts, BusContract.documentInterface, BusContract.Document1.getState.name, []).output)
        seen.append(try await busctlCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.getEpisodeDetails.name, ["s", episode]).output)
        seen.append(try await busctlGetProperty(on: bus, podcasts, BusContract.Podcasts1.subscriptions).output)
        seen.append((FileManager.default.subpaths(atPath: bus.directory.appendingPathComponent("data").path) ?? []).joined(separator: "\n"))
        seen.append(daemon.log)
        #expect(seen[0].contains(title) && seen.last(where: { $0.contains(".xml") || $0.contains(".mp3") }) != nil)
        for text in seen {
            #expect(!text.contains("s3cret") && !text.contains(encodedPassword), "\(text)")
        }
        #expect(!daemon.process.hasExited)
    }

    /// A feed's password goes again only where it was given: scheme, host and port. A feed
    /// that moves to another port of the same host (`new-feed-url`) is read there without it;
    /// one that moves on its own server keeps it.
    @Test func aMovedFeedKeepsItsPasswordOnlyOnItsOwnOrigin() async throws {
        let other = try FixtureServer.directory()
        let otherHost = "127.0.0.1:\(other.baseURL.port ?? 0)"
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let away = "http://alice:\(encodedPassword)@\(host)/private-moving/away?to=http://\(otherHost)/private/rss2-itunes.xml"
        let home = "http://alice:\(encodedPassword)@\(host)/private-moving/home?to=http://\(host)/private/atom.xml"
        for url in [away, home] {
            let subscribed = try await almanac(["podcasts", "subscribe", url], bus: bus)
            #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        }
        // The first refresh reads that they moved; the second reads them where they went.
        _ = try await almanac(["podcasts", "refresh"], bus: bus)
        #expect(await eventually {
            (try? await almanac(["podcasts", "list", "--format", "{{feedURL}}"], bus: bus).output.contains("\(otherHost)/private/rss2-itunes.xml")) == true
        })
        _ = try await almanac(["podcasts", "refresh"], bus: bus)
        let otherLog = try String(contentsOf: other.baseURL.appendingPathComponent("auth-log"), encoding: .utf8)
        #expect(otherLog.contains("/private/rss2-itunes.xml -"), "\(otherLog)")
        #expect(!otherLog.contains("Basic"), "the password went to another port: \(otherLog)")
        let ownLog = try authLog()
        #expect(ownLog.contains("/private/atom.xml Basic "), "the same server keeps the password: \(ownLog)")
        let listed = try await almanac(["podcasts", "list", "--format", "{{feedURL}}"], bus: bus).output
        #expect(listed.contains("http://alice@\(host)/private/atom.xml") && listed.contains("http://\(otherHost)/private/rss2-itunes.xml"), "\(listed)")
        #expect(!daemon.process.hasExited)
    }
}
