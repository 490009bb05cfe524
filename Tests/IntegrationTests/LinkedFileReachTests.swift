import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Issue 39: the files a feed names — transcripts, chapters files — are not fetched from the
/// user's own computer or network, directly, by a name, or by a redirect, unless the feed
/// itself was read from there; the check is on the address about to be connected to. The
/// feed is served by a test host (`TestHost`: a network namespace of the test's own, on an
/// address Almanac counts as the internet); the files it points at are on 127.0.0.1, whose
/// server must see no request at all.
@Suite(.onTestThreads, .timeLimit(.hang)) struct LinkedFileReachTests {
    let host: TestHost
    /// On the test host: the feed, its own files, and redirects.
    let remote: FixtureServer
    /// On 127.0.0.1: what a feed on the internet must not reach.
    let local: FixtureServer
    let bus: PrivateBus
    /// What `remote` and `local` serve.
    let remoteFolder: URL, localFolder: URL

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-reach-\(UUID().uuidString.prefix(8))")
        (remoteFolder, localFolder) = (base.appendingPathComponent("remote"), base.appendingPathComponent("local"))
        for folder in [remoteFolder, localFolder] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Self.vtt("Secret words of this computer.").write(to: localFolder.appendingPathComponent("secret.vtt"), atomically: true, encoding: .utf8)
        try Self.chapters("Secret chapter").write(to: localFolder.appendingPathComponent("secret.json"), atomically: true, encoding: .utf8)
        try Self.vtt("Words from the internet.").write(to: remoteFolder.appendingPathComponent("own.vtt"), atomically: true, encoding: .utf8)
        try Self.chapters("Chapter from the internet").write(to: remoteFolder.appendingPathComponent("own.json"), atomically: true, encoding: .utf8)
        host = try TestHost()
        local = try FixtureServer.feeds(serving: localFolder)
        remote = try FixtureServer.feeds(serving: remoteFolder, on: host)
        try Self.feed(local: local.baseURL.absoluteString, port: local.baseURL.port ?? 0)
            .write(to: remoteFolder.appendingPathComponent("show.xml"), atomically: true, encoding: .utf8)
        bus = try PrivateBus()
    }

    static func vtt(_ words: String) -> String { "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n\(words)\n" }

    static func chapters(_ title: String) -> String { #"{"version":"1.2.0","chapters":[{"startTime":0,"title":"\#(title)"}]}"# }

    /// "Direct" names files on 127.0.0.1; "Named" the same by the name localhost; "Bounced"
    /// files on the feed's own server that redirect there; "Own" files on the feed's server.
    static func feed(local: String, port: Int) -> String {
        func bounce(_ path: String) -> String {
            "/redirect?to=" + (local + path).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        }
        let items = [
            ("Direct", local + "/transcripts/secret.vtt", local + "/chapters/secret.json"),
            ("Named", "http://localhost:\(port)/transcripts/secret.vtt", "http://localhost:\(port)/chapters/secret.json"),
            ("Bounced", bounce("/transcripts/secret.vtt"), bounce("/chapters/secret.json")),
            ("Own", "/transcripts/own.vtt", "/chapters/own.json"),
        ].enumerated().map { index, item in
            """
            <item><title>\(item.0)</title><guid>reach-\(index)</guid><pubDate>Mon, 0\(index + 1) Nov 2026 06:00:00 GMT</pubDate>
              <enclosure url="/audio/reach-\(index)?size=1000" type="audio/mpeg" length="1000"/>
              <podcast:transcript url="\(item.1.replacingOccurrences(of: "&", with: "&amp;"))" type="text/vtt"/>
              <podcast:chapters url="\(item.2.replacingOccurrences(of: "&", with: "&amp;"))" type="application/json+chapters"/></item>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Far Away</title>
            \(items.joined(separator: "\n"))
            </channel></rss>
            """
    }

    /// What the refusal of each kind of link says.
    static let refusal = [
        "Direct": "127.0.0.1, which is on this computer (loopback); a file a feed names is fetched from there only when",
        "Named": "localhost led to ", "Bounced": " led to 127.0.0.1, which is on this computer (loopback)",
    ]

    func log(_ server: FixtureServer, _ name: String) throws -> [String] {
        try String(contentsOf: server.baseURL.appendingPathComponent(name), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func aFeedOnTheInternetCannotHaveItsTranscriptsFetchedFromThisComputer() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { withExtendedLifetime(daemon) {} }
        let ids = try await subscribeListing(remote.baseURL.absoluteString + "/feeds/show.xml", bus: bus).episodes

        for title in ["Direct", "Named", "Bounced"] {
            let id = try #require(ids[title])
            let call = try await gdbusCall(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, BusContract.Podcasts1.getTranscript.name, ["'\(id)'"])
            #expect(call.status != 0 && call.errorOutput.contains("org.almanac.Error.FetchFailed"), "\(title): \(call.output) \(call.errorOutput)")
            // localhost is 127.0.0.1 or ::1, each refused: the message names the last one tried.
            // An address written in the link is named once, not "127.0.0.1 led to 127.0.0.1".
            #expect(call.errorOutput.contains(Self.refusal[title] ?? "-") && call.errorOutput.contains("which is on this computer (loopback)")
                    && call.errorOutput.contains("nothing was sent")
                    && !call.errorOutput.contains("127.0.0.1 led to"), "\(title): \(call.errorOutput)")
            let shown = try await almanac(["episode", "transcript", id], bus: bus)
            #expect(shown.status == 65 && shown.errorOutput.contains("which is on this computer (loopback)"), "\(title): \(shown.output) \(shown.errorOutput)")
            #expect(!shown.output.contains("Secret"), "\(title): \(shown.output)")
        }
        // The feed's own file, on the internet, is fetched as ever.
        let own = try await almanac(["episode", "transcript", try #require(ids["Own"])], bus: bus)
        #expect(own.status == 0 && own.output.contains("Words from the internet."), "\(own.output) \(own.errorOutput)")
        // Nothing reached this computer's server; the redirect was asked for, and not followed.
        #expect(try log(local, "transcripts-log").isEmpty, "\((try? log(local, "transcripts-log")) ?? [])")
        #expect(try log(remote, "transcripts-log") == ["own.vtt 200"])
    }

    @Test func aFeedOnTheInternetCannotHaveItsChaptersFetchedFromThisComputer() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { withExtendedLifetime(daemon) {} }
        let ids = try await subscribeListing(remote.baseURL.absoluteString + "/feeds/show.xml", bus: bus).episodes

        for title in ["Direct", "Named", "Bounced"] {
            let shown = try await almanac(["episode", "show", try #require(ids[title]), "--json"], bus: bus)
            try #require(shown.status == 0, "\(title): \(shown.errorOutput)")
            let record = try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
            #expect((record["chapters"] as? [Any])?.isEmpty == true, "\(title): \(shown.output)")
            let note = record["chaptersNote"] as? String ?? ""
            #expect(note.contains(Self.refusal[title] ?? "-") && note.contains("which is on this computer (loopback)") && note.contains("nothing was sent"),
                    "\(title): \(note)")
        }
        let own = try await almanac(["episode", "show", try #require(ids["Own"]), "--json"], bus: bus)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(own.output.utf8)) as? [String: Any], "\(own.errorOutput)")
        #expect((record["chapters"] as? [[String: Any]])?.first?["title"] as? String == "Chapter from the internet", "\(own.output)")
        #expect(try log(local, "chapters-log").isEmpty, "\((try? log(local, "chapters-log")) ?? [])")
        #expect(try log(remote, "chapters-log") == ["own.json 200"])
    }
}
