#if FUZZING
import AlmanacCore
@testable import AlmanacFeeds
@testable import AlmanacServices
import DBus
import Foundation

/// What each fuzz target does with one input; every path must end in a value or a thrown
/// error, never a trap.
enum FuzzTargets {
    static func feed(_ bytes: [UInt8]) {
        guard let feed = try? FeedParser.parse(bytes, feedURL: "https://example.com/feed.xml") else { return }
        // Touch what the daemon goes on to use.
        _ = feed.episodes.map { ($0.title, $0.enclosures.count, $0.published) }
    }

    static func opml(_ bytes: [UInt8]) {
        guard let outlines = try? OPML.parse(bytes) else { return }
        // What export writes must read back the same.
        let written = OPML.document(outlines)
        guard let again = try? OPML.parse(Array(written.utf8)), again == outlines else {
            fatalError("OPML export of \(outlines.count) outlines did not read back the same")
        }
    }

    static func openMeteo(_ bytes: [UInt8]) {
        let body = Data(bytes)
        let place = OpenMeteoWeatherService.Place(name: "Fuzz", latitude: 1, longitude: 2)
        _ = try? OpenMeteoWeatherService.reading(fromForecast: body, location: "Fuzz", place: place, fetchedAt: Date(timeIntervalSince1970: 0))
        _ = try? JSONDecoder().decode(OpenMeteo.GeocodingResponse.self, from: body)
    }

    /// Every reader of JSON from elsewhere (`JSONReader` and what reads through it).
    static func json(_ bytes: [UInt8]) {
        let data = Data(bytes)
        _ = try? JSONReader.node(data, limits: JSONLimits(depth: 16, stringBytes: 64, items: 16, values: 256))
        _ = try? TranscriptParser.parse(data, format: .json)
        _ = try? ChaptersJSON.parse(data, url: URL(string: "https://example.com/chapters.json"))
        _ = try? OfficialAlerts.nwsAlerts(data)
        _ = try? OfficialAlerts.metAlerts(data, near: (59.9, 10.7))
        _ = try? MeteoAlarmFeed.warnings(data)
        _ = try? ITunesPodcastSearch.results(data, limit: 10)
        _ = try? GpodderAnswer.subscriptionChanges(data)
        _ = try? GpodderAnswer.episodeActions(data)
        _ = try? GpodderAnswer.upload(data)
    }

    static func dbus(_ bytes: [UInt8]) {
        // The wire form as a peer would send it, and a signature on its own.
        if let message = try? Message(marshalled: bytes) {
            _ = (message.type, message.path, message.interface, message.member, message.sender, message.signature)
            if let values = try? message.values() {
                _ = values.map(\.type)
            }
            _ = try? message.marshalled()
        }
        if let text = String(validating: bytes.prefix(300), as: UTF8.self), let signature = try? Signature(text) {
            _ = signature.types
        }
    }
}
#endif
