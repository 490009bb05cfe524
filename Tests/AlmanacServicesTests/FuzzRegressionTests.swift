import AlmanacCore
@testable import AlmanacFeeds
@testable import AlmanacServices
import Foundation
import TestHarness
import Testing
import AlmanacModels

/// The inputs `make fuzz` saved (Tests/Fixtures/fuzz/<target>: crashers once fixed, and small
/// seeds), fed through the code each fuzz target drives: each ends in a value or an error.
@Suite(.onTestThreads, .timeLimit(.hang)) struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz")

    static func saved(_ target: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(target).path)) ?? []
        return names.filter { !$0.hasSuffix(".md") }.sorted()
    }

    static func bytes(_ target: String, _ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(target).appendingPathComponent(name)))
    }

    @Test func everyTargetHasSavedInputs() {
        for target in ["feed", "opml", "openmeteo", "json"] { #expect(!Self.saved(target).isEmpty, "no inputs under \(target)") }
    }

    /// Seeds (`seed-*`) are valid inputs: they must be read, not merely survive.
    static func isSeed(_ name: String) -> Bool { name.hasPrefix("seed-") }

    @Test(arguments: saved("feed")) func savedFeedInputsParseOrFail(name: String) throws {
        let feed = try? FeedParser.parse(try Self.bytes("feed", name), feedURL: "https://example.com/feed.xml")
        if let feed { _ = feed.episodes.map { ($0.title, $0.enclosures.count, $0.published) } }
        if Self.isSeed(name) { #expect(feed?.episodes.isEmpty == false, "seed \(name) should parse, with episodes") }
    }

    @Test(arguments: saved("opml")) func savedOPMLInputsParseAndExportBackTheSame(name: String) throws {
        let outlines = try? OPML.parse(try Self.bytes("opml", name))
        if Self.isSeed(name) { #expect(outlines?.isEmpty == false, "seed \(name) should parse") }
        guard let outlines else { return }
        #expect(try OPML.parse(Array(OPML.document(outlines).utf8)) == outlines)
    }

    /// Through every reader of JSON from elsewhere, as the `json` target drives them.
    @Test(arguments: saved("json")) func savedJSONInputsReadOrFail(name: String) throws {
        let data = Data(try Self.bytes("json", name))
        let node = try? JSONReader.node(data, limits: JSONLimits(depth: 16, stringBytes: 64, items: 16, values: 256))
        _ = try? TranscriptParser.parse(data, format: .json)
        _ = try? ChaptersJSON.parse(data, url: URL(string: "https://example.com/chapters.json"))
        _ = try? OfficialAlerts.nwsAlerts(data)
        _ = try? MeteoAlarmFeed.warnings(data)
        _ = try? ITunesPodcastSearch.results(data, limit: 10)
        _ = try? GpodderAnswer.subscriptionChanges(data)
        _ = try? GpodderAnswer.episodeActions(data)
        _ = try? GpodderAnswer.upload(data)
        if Self.isSeed(name) { #expect(node != nil, "seed \(name) should read") }
    }

    @Test(arguments: saved("openmeteo")) func savedOpenMeteoAnswersDecodeOrFail(name: String) throws {
        let body = Data(try Self.bytes("openmeteo", name))
        let place = OpenMeteoWeatherService.Place(name: "Fuzz", latitude: 1, longitude: 2)
        let reading = try? OpenMeteoWeatherService.reading(fromForecast: body, location: "Fuzz", place: place, fetchedAt: Date(timeIntervalSince1970: 0))
        let places = try? JSONDecoder().decode(OpenMeteo.GeocodingResponse.self, from: body)
        if Self.isSeed(name) { #expect(reading != nil || places != nil, "seed \(name) should decode") }
    }
}
