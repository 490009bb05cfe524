import AlmanacCore
import AlmanacDemo
import AlmanacModels
import AlmanacServices
import AlmanacWire
import DBus
import Foundation
import Locking
import TestHarness
import Testing

/// A client that starts from `GetState`'s state and applies every change it hears, decoded,
/// with the documents' own reducer (as `almanac watch` does) holds what the document holds.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ReducerAgreementTests {
    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "no route to host" }
    }

    /// Every change a document makes, as a client decodes it (`nil`: one it could not).
    final class Heard<Change: Sendable>: Sendable {
        let changes = Locked<[Change?]>([])

        init<State, Options>(_ document: Document<State, Change, Options>, encode: @escaping @Sendable (Change) throws -> [String: Value],
                    decode: @escaping @Sendable ([String: Value]) -> Change?) {
            document.addView(key: ViewKey("client")) { [weak self] event in
                guard case .changed(_, let change, _) = event else { return }
                self?.changes.withLock { $0.append((try? encode(change)).flatMap(decode)) }
            }
        }
    }

    @Test func aWeatherClientHoldsWhatTheDocumentHolds() async throws {
        let weather = WeatherDocument(logger: .discarding)
        let service = DemoWeatherService()
        var client = try WireCoding.decode(WeatherState.self, fromFields: WireCoding.fields(weather.document.state))
        let heard = Heard(weather.document, encode: WireCoding.fields, decode: { try? WireCoding.decode(WeatherChange.self, fromFields: $0) })
        weather.document.addView(key: ViewKey("Berlin"), options: WeatherViewOptions(location: "Berlin")) { _ in }
        weather.document.addView(key: ViewKey("Oslo"), options: WeatherViewOptions(location: "Oslo")) { _ in }
        await weather.weatherService(service, didFetch: StateApplyReading.make("Berlin"))
        await weather.weatherService(service, didFetch: StateApplyReading.make("Oslo"))
        await weather.weatherService(service, didFailToFetch: "Oslo", error: Unreachable())
        try weather.submit(.units(.imperial), from: nil)
        try weather.submit(.provider(.metNorway), from: nil)
        try weather.submit(.savedLocations(["Berlin", "Paris"]), from: nil)
        weather.document.removeView(key: ViewKey("Oslo"))
        weather.forgetUnwanted()
        OwnerHold.drain(weather.onOwner)
        let changes = heard.changes.withLock { $0 }
        #expect(changes.count == 7)
        for change in changes { client.apply(try #require(change)) }
        #expect(client == weather.document.state)
    }

    @Test func aPodcastsClientHoldsWhatTheDocumentHolds() throws {
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)
        let show = Podcast(id: "p", title: "Show", author: "A", feedURL: "https://example.org/p")
        let other = Podcast(id: "q", title: "Other", author: "B", feedURL: "https://example.org/q")
        func episode(_ id: String, of podcast: String, _ seconds: Double) -> Episode {
            Episode(id: id, podcastID: podcast, title: id, published: Date(timeIntervalSince1970: 1_800_000_000 + seconds), duration: 100)
        }
        var client = try WireCoding.decode(PodcastsState.self, fromFields: WireCoding.fields(podcasts.document.state))
        let heard = Heard(podcasts.document, encode: WireCoding.fields, decode: { try? WireCoding.decode(PodcastsChange.self, fromFields: $0) })
        try podcasts.subscribe(show)
        try podcasts.subscribe(other)
        podcasts.record(.parsed(podcast: show, episodes: [episode("p1", of: "p", 1), episode("p2", of: "p", 2)]))
        podcasts.record(.parsed(podcast: other, episodes: [episode("q1", of: "q", 3)]))
        podcasts.record(.failed(podcastID: "q", error: Unreachable()))
        try podcasts.submit(PlayStateSubmission(episodeID: "p1", played: true, position: 30), from: nil)
        try podcasts.keep("p2", true, from: nil)
        try podcasts.recordFile("/downloads/a.mp3", of: "p2")
        try podcasts.recordFile("/downloads/a.mp3", of: "q1")
        try podcasts.submit(SettingsSubmission(notify: true, playedAt: 0.8), from: nil)
        try podcasts.setPreferences(PreferencesSubmission(autoDownload: true, keep: 2), of: "q")
        try podcasts.rename("q", to: "Renamed")
        try podcasts.markAllPlayed("q", from: nil)
        try podcasts.unsubscribe("p")
        let changes = heard.changes.withLock { $0 }
        #expect(changes.count == 15)
        for change in changes { client.apply(try #require(change)) }
        #expect(client == podcasts.document.state)
    }
}

/// A reading of a place, in whole seconds (as the bus carries it).
enum StateApplyReading {
    static func make(_ location: String) -> WeatherReading {
        WeatherReading(location: location, placeName: location, latitude: 1, longitude: 2, temperature: 10, apparentTemperature: 9,
                       humidity: 50, windSpeed: 3, windDirection: 90, precipitation: 0, weatherCode: 1, isDay: true,
                       observedAt: Date(timeIntervalSince1970: 1_800_000_000))
    }
}
