import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Issue 28's transcripts through the real binaries on a private bus, with a feed and its
/// transcript files from the local fixture server: fetched once and kept, printed with
/// times, searched by `episodes --search` with the moment, played from a moment.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TranscriptTests {
    let folder: URL
    let server: FixtureServer
    let bus: PrivateBus

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-transcripts-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.feed.write(to: folder.appendingPathComponent("show.xml"), atomically: true, encoding: .utf8)
        try Self.vtt.write(to: folder.appendingPathComponent("compost.vtt"), atomically: true, encoding: .utf8)
        try "<html><body><p>Only words, no times: compost heaps.</p></body></html>".write(to: folder.appendingPathComponent("compost.html"), atomically: true, encoding: .utf8)
        try "<html><body>Not found</body></html>".write(to: folder.appendingPathComponent("notvtt.vtt"), atomically: true, encoding: .utf8)
        try Self.vtt.replacing("compost", with: "mulch").write(to: folder.appendingPathComponent("mulch.vtt"), atomically: true, encoding: .utf8)
        server = try FixtureServer.feeds(serving: folder)
        bus = try PrivateBus()
    }

    /// "Compost" names an HTML and a WebVTT transcript (the WebVTT is fetched); "Mulch" a
    /// WebVTT one; "Silence" none; "Broken" one that is not WebVTT; "Elsewhere" one behind a
    /// redirect to file:///etc/passwd.
    static let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
        <channel>
          <title>Garden Talk</title>
          <item><title>Compost</title><guid>g-5</guid><pubDate>Mon, 09 Nov 2026 06:00:00 GMT</pubDate><itunes:duration>1:00:00</itunes:duration>
            <enclosure url="/audio/compost?size=1000" type="audio/mpeg" length="1000"/>
            <podcast:transcript url="/transcripts/compost.html" type="text/html"/>
            <podcast:transcript url="/transcripts/compost.vtt" type="text/vtt" language="en"/></item>
          <item><title>Mulch</title><guid>g-4</guid><pubDate>Mon, 02 Nov 2026 06:00:00 GMT</pubDate>
            <enclosure url="/audio/mulch?size=1000" type="audio/mpeg" length="1000"/>
            <podcast:transcript url="/transcripts/mulch.vtt" type="text/vtt"/></item>
          <item><title>Silence</title><guid>g-3</guid><pubDate>Mon, 26 Oct 2026 06:00:00 GMT</pubDate></item>
          <item><title>Broken</title><guid>g-2</guid><pubDate>Mon, 19 Oct 2026 06:00:00 GMT</pubDate>
            <podcast:transcript url="/transcripts/notvtt.vtt" type="text/vtt"/></item>
          <item><title>Elsewhere</title><guid>g-1</guid><pubDate>Mon, 12 Oct 2026 06:00:00 GMT</pubDate>
            <podcast:transcript url="/redirect-to-file" type="text/vtt"/></item>
        </channel>
        </rss>
        """

    static let vtt = "\u{FEFF}WEBVTT\r\n\r\n1\r\n00:00:01.000 --> 00:00:04.000 align:start\r\n<v Ada>Welcome to Garden Talk.\r\n\r\n"
        + "12:31.400 --> 12:36.000\r\n<v Grace>We talk about <i>compost heaps</i>\r\nand worms.\r\n"

    var base: String { server.baseURL.absoluteString }

    /// Subscribes and returns the episode ids by title.
    func subscribe() async throws -> [String: String] {
        try await subscribeListing(base + "/feeds/show.xml", bus: bus).episodes
    }

    func transcriptRequests() throws -> [String] {
        try String(contentsOf: server.baseURL.appendingPathComponent("transcripts-log"), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func aVTTTranscriptsPhraseIsFoundByEpisodesSearchWithItsTime() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let ids = try await subscribe()
        let compost = try #require(ids["Compost"])

        // Not fetched yet: nothing says "compost heaps" but the transcript.
        var found = try await almanac(["episodes", "--search", "heaps worms"], bus: bus)
        #expect(found.status == 0 && found.output == "No episodes match 'heaps worms'.\n", "\(found.output) \(found.errorOutput)")
        #expect(try transcriptRequests().isEmpty)

        // Printed with its times and speakers; the WebVTT of the two links is fetched, once.
        let printed = try await almanac(["episode", "transcript", compost], bus: bus)
        #expect(printed.status == 0, "\(printed.errorOutput)")
        #expect(printed.output == " 0:01  Ada: Welcome to Garden Talk.\n12:31  Grace: We talk about compost heaps and worms.\n", "\(printed.output)")
        let json = try await almanac(["episode", "transcript", compost, "--json"], bus: bus)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], "\(json.output)")
        #expect(object["format"] as? String == "WebVTT" && object["url"] as? String == base + "/transcripts/compost.vtt")
        let segments = try #require(object["segments"] as? [[String: Any]])
        #expect(segments.map { $0["startTime"] as? Double } == [1, 751.4])
        #expect(segments.map { $0["startText"] as? String } == ["0:01", "12:31"])
        #expect(try transcriptRequests() == ["compost.vtt 200"])

        // Now the search finds the episode by its transcript, and shows the moment.
        found = try await almanac(["episodes", "--search", "heaps worms"], bus: bus, environment: ["COLUMNS": "120"])
        #expect(found.status == 0, "\(found.errorOutput)")
        let lines = found.output.split(separator: "\n").map(String.init)
        let row = try #require(lines.firstIndex { $0.hasPrefix(compost) }, "\(found.output)")
        #expect(lines.dropFirst(row + 1).first == "    12:31 We talk about compost heaps and worms.", "\(found.output)")
        let searched = try await almanac(["episodes", "--search", "compost heaps", "--json"], bus: bus)
        let page = try #require(try JSONSerialization.jsonObject(with: Data(searched.output.utf8)) as? [String: Any], "\(searched.output)")
        let moments = try #require(page["transcriptMoments"] as? [[String: Any]], "\(searched.output)")
        #expect(moments.map { $0["id"] as? String } == [compost] && moments.map { $0["startText"] as? String } == ["12:31"])

        // Kept: across a kill -9, asked again without fetching again.
        try await daemon.restart()
        let again = try await almanac(["episode", "transcript", compost], bus: bus)
        #expect(again.status == 0 && again.output.contains("12:31  Grace"), "\(again.output) \(again.errorOutput)")
        #expect(try transcriptRequests() == ["compost.vtt 200"])
    }

    @Test func queueingDownloadingOrShowingAnEpisodeFetchesItsTranscript() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { withExtendedLifetime(daemon) {} }
        let ids = try await subscribe()
        let mulch = try #require(ids["Mulch"])
        #expect(try await almanac(["queue", "add", mulch], bus: bus).status == 0)
        #expect(try await eventually { try transcriptRequests() == ["mulch.vtt 200"] }, "\((try? transcriptRequests()) ?? [])")
        let found = try await eventually {
            let result = try await almanac(["episodes", "--search", "mulch heaps"], bus: bus, environment: ["COLUMNS": "120"])
            return result.output.contains("    12:31 We talk about mulch heaps and worms.") ? result : nil
        }
        #expect(found != nil)
        // Fetched once, not again for the search.
        #expect(try transcriptRequests() == ["mulch.vtt 200"])

        // Downloaded: its transcript is fetched too.
        #expect(try await almanac(["episode", "download", try #require(ids["Compost"])], bus: bus).status == 0)
        #expect(try await eventually { try transcriptRequests() == ["mulch.vtt 200", "compost.vtt 200"] }, "\((try? transcriptRequests()) ?? [])")
        // Shown: the show does not wait for it, but it is fetched.
        #expect(try await almanac(["episode", "show", try #require(ids["Broken"])], bus: bus).status == 0)
        #expect(try await eventually { try transcriptRequests() == ["mulch.vtt 200", "compost.vtt 200", "notvtt.vtt 200"] }, "\((try? transcriptRequests()) ?? [])")
    }

    @Test func anEpisodeWithoutAUsableTranscriptIsRefusedSayingWhy() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { withExtendedLifetime(daemon) {} }
        let ids = try await subscribe()

        var result = try await almanac(["episode", "transcript", "nonesuch"], bus: bus)
        #expect(result.status == 65 && result.errorOutput.contains("there is no episode 'nonesuch'"), "\(result.errorOutput)")
        result = try await almanac(["episode", "transcript", try #require(ids["Silence"])], bus: bus)
        #expect(result.status == 65 && result.errorOutput.lowercased().contains("its feed names no transcript"), "\(result.errorOutput)")
        result = try await almanac(["episode", "transcript", try #require(ids["Broken"])], bus: bus)
        #expect(result.status == 65 && result.errorOutput.contains("could not be read as WebVTT: It is not WebVTT: it does not begin with WEBVTT"), "\(result.errorOutput)")
        result = try await almanac(["episode", "transcript", try #require(ids["Elsewhere"])], bus: bus)
        #expect(result.status == 65 && result.errorOutput.contains("redirected to a file: address, which Almanac does not follow"), "\(result.errorOutput)")
        #expect(!result.errorOutput.contains("root:"), "\(result.errorOutput)")
        // The file that is not WebVTT is kept as such: not fetched again.
        _ = try await almanac(["episode", "transcript", try #require(ids["Broken"])], bus: bus)
        #expect(try transcriptRequests() == ["notvtt.vtt 200"])
    }

    @Test func playAtStartsTheEpisodeThere() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { withExtendedLifetime(daemon) {} }
        let ids = try await subscribe()
        let compost = try #require(ids["Compost"])
        let players = bus.directory.appendingPathComponent("players"), records = bus.directory.appendingPathComponent("played")
        try FileManager.default.createDirectory(at: players, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: players.appendingPathComponent("mpv").path, withDestinationPath: SourceTree.path("Tests/Fixtures/fake-player.sh"))
        let environment = ["PATH": players.path, "ALMANAC_TEST_PLAYED": records.path]

        let played = try await almanac(["episode", "play", compost, "--at", "12:31"], bus: bus, environment: environment)
        #expect(played.status == 0 && played.output == "Playing “Compost” of Garden Talk in mpv from 12:31.\n", "\(played.output) \(played.errorOutput)")
        let file = records.appendingPathComponent("mpv.args")
        try #require(await eventually { FileManager.default.fileExists(atPath: file.path) })
        #expect(try String(contentsOf: file, encoding: .utf8) == "--start=751\n\(base)/audio/compost?size=1000\nEND\n")

        for bad in ["12:61", "soon", "-5", "1:2:3:4"] {
            let refused = try await almanac(["episode", "play", compost, "--at=" + bad], bus: bus, environment: environment)
            #expect(refused.status == 64 && refused.errorOutput.contains("--at takes a time such as 12:31"), "\(bad): \(refused.errorOutput)")
        }
        let past = try await almanac(["episode", "play", compost, "--at", "2:00:00"], bus: bus, environment: environment)
        #expect(past.status == 64 && past.errorOutput.contains("past the end of “Compost”, which lasts 1:00:00"), "\(past.errorOutput)")
    }
}
