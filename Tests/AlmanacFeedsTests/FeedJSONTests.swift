import AlmanacModels
import AlmanacFeeds

import Foundation
import TestHarness
import Testing

/// `FeedJSON` writes what `almanac podcasts inspect --json` printed when it built a JSON tree
/// with Foundation's encoder: the same bytes, so scripts see no difference.
@Suite(.onTestThreads, .timeLimit(.hang)) struct FeedJSONTests {
    /// The feeds of Tests/Fixtures/feeds whose JSON was recorded (Tests/Fixtures/inspect-json)
    /// from the CLI before it wrote JSON itself.
    static let recorded = (try? FileManager.default.contentsOfDirectory(atPath: SourceTree.path("Tests/Fixtures/inspect-json")))?
        .filter { $0.hasSuffix(".json") }.sorted() ?? []

    @Test(arguments: recorded)
    func theJSONIsWhatTheCLIPrintedBefore(_ name: String) throws {
        let feed = String(name.dropLast(".json".count))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: SourceTree.path("Tests/Fixtures/feeds/" + feed)))
        let expected = try String(contentsOfFile: SourceTree.path("Tests/Fixtures/inspect-json/" + name), encoding: .utf8)
        let written = String(decoding: FeedJSON.bytes(try FeedParser.parse(bytes)), as: UTF8.self)
        #expect(written + "\n" == expected)
    }

    @Test func everyFixtureWithAFeedWasRecorded() {
        #expect(Self.recorded.count >= 20)
    }

    @Test(arguments: ["", "plain", "a\u{0}b\u{1f}c\u{7f}d\"e\\f/g\u{2028}h\u{2029}i\tj\nk\rl\u{8}m\u{c}n", "café 日本語 🎙️", "\u{FFFD}<&>'"])
    func stringsAreEscapedAsTheEncoderDoes(_ text: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(FeedJSON.string(text) == String(decoding: try encoder.encode(text), as: UTF8.self))
    }

    @Test(arguments: [3723.5, 3600, 90.25, 0.1, 1e21, 1e-7, 123_456_789_012, 1.0 / 3.0, .leastNonzeroMagnitude, 2.5e15, 1e16, -0.0, 12_345_678.9])
    func numbersAreWrittenAsTheEncoderDoes(_ value: Double) throws {
        let encoder = JSONEncoder()
        #expect(FeedJSON.number(value) == String(decoding: try encoder.encode(value), as: UTF8.self))
        #expect(FeedJSON.number(.nan) == nil && FeedJSON.number(.infinity) == nil)
    }

    @Test func aLargeFeedIsValidJSONWithEveryEpisode() throws {
        let episodes = (0..<2_000).map { ParsedEpisode(guid: "g\($0)", title: "Episode \($0) \"quoted\"", published: Int64($0), duration: Double($0) / 4) }
        let json = FeedJSON.bytes(ParsedFeed(title: "Big", episodes: episodes))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any])
        #expect((object["episodes"] as? [Any])?.count == 2_000)
    }
}
