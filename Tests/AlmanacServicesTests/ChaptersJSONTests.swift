import AlmanacCore
import AlmanacModels
@testable import AlmanacServices
import Foundation
import TestHarness
import Testing

/// Podcasting 2.0 chapters files: read from bytes, and fetched from the local feed server.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ChaptersJSONTests {
    static let base = URL(string: "https://show.example/chapters/ep1.json")

    func parse(_ json: String) throws(LinkedFileError) -> [FeedChapter] {
        try ChaptersJSON.parse(Data(json.utf8), url: Self.base)
    }

    @Test func readsTheNamespacesExampleInOrderOfStart() throws {
        let chapters = try parse("""
            {"version": "1.2.0", "author": "John Doe", "title": "Episode 7 - Making Progress",
             "chapters": [
               {"startTime": 168, "title": "Hearing Aids", "url": "/aids", "img": "https://show.example/aids.jpg"},
               {"startTime": 0, "title": "Intro"},
               {"startTime": "281.5", "title": "  Progress\\n report "},
               {"startTime": 400, "title": "Hidden", "toc": false},
               {"title": "No start"},
               {"startTime": -3, "title": "Before the start"},
               {"startTime": true, "title": "A flag"},
               "not a chapter",
               {"startTime": 500}
             ]}
            """)
        #expect(chapters == [
            FeedChapter(start: 0, title: "Intro"),
            FeedChapter(start: 168, title: "Hearing Aids", url: "https://show.example/aids", image: "https://show.example/aids.jpg"),
            FeedChapter(start: 281.5, title: "Progress report"),
            FeedChapter(start: 500, title: ""),
        ])
        #expect(try parse(#"{"version": "1.2.0", "chapters": []}"#) == [])
    }

    @Test(arguments: [
        ("", "it is not JSON at all (it is empty)"),
        ("<html><body>Not found</body></html>", "it is not JSON at all (it begins “<html><body>Not found</body></html>”)"),
        ("[1, 2]", "it holds a list, not an object with a \"chapters\" list"),
        (#"{"version": "1.2.0"}"#, "it has no \"chapters\" list"),
        (#"{"chapters": {"startTime": 1}}"#, "it has no \"chapters\" list"),
        (#"{"chapters": [{"title": "A"}, {"start": 3}]}"#, "none of its 2 chapters has a \"startTime\" in seconds"),
    ])
    func aFileThatIsNotChaptersSaysWhy(json: String, reason: String) {
        #expect(throws: LinkedFileError(.invalid, "https://show.example/chapters/ep1.json is not chapters JSON: \(reason).")) { try parse(json) }
    }

    @Test func fetchesOverHTTPAndTellsAMissingFileFromABadOne() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-chapters-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try #"{"version":"1.2.0","chapters":[{"startTime":0,"title":"Intro","img":"intro.jpg"},{"startTime":61.5,"title":"Main"}]}"#
            .write(to: folder.appendingPathComponent("good.json"), atomically: true, encoding: .utf8)
        try "<rss/>".write(to: folder.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let server = try FixtureServer.feeds(serving: folder)
        let base = server.baseURL.absoluteString
        let fetcher = ChaptersFetcher()
        // The feed is on this computer too, so its files may be.
        let feed = base + "/feeds/show.xml"
        #expect(try await fetcher.chapters(at: base + "/chapters/good.json", namedBy: feed) == [
            FeedChapter(start: 0, title: "Intro", image: base + "/chapters/intro.jpg"), FeedChapter(start: 61.5, title: "Main"),
        ])
        await #expect(throws: LinkedFileError(.invalid, "\(base)/chapters/bad.json is not chapters JSON: it is not JSON at all (it begins “<rss/>”).")) {
            try await fetcher.chapters(at: base + "/chapters/bad.json", namedBy: feed)
        }
        let missing = await #expect(throws: LinkedFileError.self) { try await fetcher.chapters(at: base + "/chapters/none.json", namedBy: feed) }
        #expect(missing?.code == .unreadable && missing?.message.contains("HTTP 404") == true, "\(String(describing: missing))")
        let notHTTP = await #expect(throws: LinkedFileError.self) { try await fetcher.chapters(at: "file:///etc/passwd", namedBy: feed) }
        #expect(notHTTP?.code == .invalid)
        // Larger than any chapters file: as it is, not asked for again.
        let big = await #expect(throws: LinkedFileError.self) { try await fetcher.chapters(at: base + "/big/5", namedBy: feed) }
        #expect(big?.code == .invalid && big?.message.contains("larger than the 4 MiB") == true, "\(String(describing: big))")
        // A server that says nothing: not answered, in words, not Foundation's error number.
        let impatient = ChaptersFetcher(http: HTTPClient(timeout: 1, accept: ChaptersFetcher.accept, conditional: false))
        let slow = await #expect(throws: LinkedFileError.self) { try await impatient.chapters(at: base + "/slow/good.json", namedBy: feed) }
        #expect(slow?.code == .unanswered && slow?.message.contains("127.0.0.1 sent nothing for 1 s") == true, "\(String(describing: slow))")
    }
}
