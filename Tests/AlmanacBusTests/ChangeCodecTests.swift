@testable import AlmanacWire
import AlmanacModels
import DBus
import Foundation
import TestHarness
import Testing

/// Every change the documents announce decodes to what was encoded (or, where the encoding
/// is lossy on purpose, to what a client can know), after a real trip through a marshalled
/// message; and an `a{sv}` that is not a change decodes to `nil` without trapping.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ChangeCodecTests {
    /// `data` as a view's owner reads it from `Updated(t, a{sv})`: written into a message,
    /// marshalled to bytes, validated by libdbus and read back.
    static func overTheWire(_ data: [String: Value]) throws -> [String: Value] {
        let payload = try Message.payload { writer in
            try writer.write(UInt64(7))
            try writer.write(data)
        }
        return try Message(payload: payload).arguments(UInt64.self, [String: Value].self).1
    }

    static let second = Date(timeIntervalSince1970: 1_800_000_000)
    static let reading = WeatherReading(
        location: "Berlin", placeName: "Berlin, Germany", latitude: 52.52, longitude: 13.41, temperature: 9.5,
        apparentTemperature: 7.25, humidity: 81, windSpeed: 14.4, windDirection: 250, precipitation: 0.2,
        weatherCode: 61, isDay: false, observedAt: second, fetchedAt: second.addingTimeInterval(30), utcOffset: 3_600,
        hourly: [HourlyForecast(time: second, temperature: 9, precipitationProbability: 40, precipitation: 0.1, weatherCode: 3,
                                windSpeed: 12, isDay: false, details: WeatherDetails(uvIndex: 0, dewPoint: 4.5))],
        daily: [DailyForecast(day: "2027-01-15", weatherCode: 61, temperatureMax: 11, temperatureMin: 3, precipitation: 4,
                              precipitationProbability: 80, windSpeedMax: 30, sunrise: second, sunset: second.addingTimeInterval(30_000),
                              uvIndexMax: 1.5, sunshineDuration: 7_200, precipitationHours: 3)],
        details: WeatherDetails(uvIndex: 0.5, pressure: 1_013, visibility: 10_000, cloudCover: 90, windGusts: 40, dewPoint: 6),
        airQuality: AirQuality(europeanAQI: 21, pm2_5: 4.5, observedAt: second, fetchedAt: second), provider: "open-meteo",
        nowcast: Nowcast(steps: [NowcastStep(start: second, precipitation: 0), NowcastStep(start: second.addingTimeInterval(900), precipitation: 1.5)])
    )

    static let weatherChanges: [WeatherChange] = [
        .reading(reading), .failed(location: "Atlantis", message: "no such place"), .units(.imperial), .units(.metric),
        .provider(.metNorway), .savedLocations(["Berlin", "Paris"]), .savedLocations([]), .forgotten(["Oslo"]),
        .rainNotify(.sixtyMinutes), .rainNotify(.off), .weatherAlerts(.all), .weatherAlerts(.off),
        .windUnit(.knots), .precipitationUnit(.inches),
        .alerts(location: "Oslo", PlaceAlerts(alerts: [alert, WeatherAlert(id: "b", event: "Gale", severity: .unknown, headline: "", source: "metalerts")]),
                began: ["urn:1"], ended: ["urn:0"]),
        .alerts(location: "Oslo", PlaceAlerts(stale: true, error: "NWS alerts: HTTP 503", fetchedAt: second), began: [], ended: []),
    ]

    static let alert = WeatherAlert(id: "urn:1", event: "Orange wind warning", severity: .severe, certainty: "Likely", urgency: "Expected",
                                    onset: second, expires: second.addingTimeInterval(3_600), headline: "Wind, orange level",
                                    description: "Gusts", instruction: "Secure loose objects", area: "Oslo", source: "metalerts",
                                    url: "https://www.met.no")

    static let episode = Episode(id: "p-1", podcastID: "p", title: "One", published: second, duration: 61, isNew: true,
                                 played: false, position: 12.5, audioURL: "https://example.org/1.mp3", file: "/tmp/1.mp3", kept: true)
    static let podcast = Podcast(id: "p", title: "Show", author: "A", feedURL: "https://example.org/feed")

    static let podcastsChanges: [PodcastsChange] = [
        .subscribed(podcast), .unsubscribed(podcastID: "p"), .renamed(podcast),
        .newEpisodes(podcastID: "p", [episode, Episode(id: "p-2", podcastID: "p", title: "Two", published: .init(timeIntervalSince1970: 0), duration: nil)]),
        .playState(episodeID: "p-1", podcastID: "p", played: true, position: 30.5),
        .failed(podcastID: "p", message: "HTTP 404"),
        .downloaded(episodeID: "p-1", podcastID: "p", file: "/tmp/1.mp3"), .downloaded(episodeID: "p-1", podcastID: "p", file: nil),
        .settings(PodcastSettings(notify: true, deleteWhenPlayed: true, playedAt: 0.9, player: "mpv", minimumFreeSpace: 5)),
        .podcastSettings(podcastID: "p", PodcastPreferences(refreshInterval: 600, autoDownload: true, keep: 3, deletePlayedAfter: 86_400, notify: false)),
        .podcastSettings(podcastID: "p", PodcastPreferences()),
        .kept(episodeID: "p-1", podcastID: "p", kept: false),
        .allPlayed(podcastID: "p", count: 12), .allPlayed(podcastID: nil, count: 0),
        .olderEpisodes(podcastID: "p", count: 40),
        .queue([QueuedEpisode(episodeID: "p-2", podcastID: "p"), QueuedEpisode(episodeID: "q-1", podcastID: "q")]), .queue([]),
    ]

    @Test(arguments: weatherChanges)
    func weatherChangesRoundTrip(_ change: WeatherChange) throws {
        #expect(Self.weatherChange(try Self.overTheWire(WireCoding.fields(change))) == change)
        #expect(Self.weatherUpdate(try Self.overTheWire(WireCoding.fields(change))) == .changed(change))
    }

    @Test(arguments: podcastsChanges)
    func podcastsChangesRoundTrip(_ change: PodcastsChange) throws {
        #expect(Self.podcastsChange(try Self.overTheWire(WireCoding.fields(change))) == change)
        #expect(Self.podcastsUpdate(try Self.overTheWire(WireCoding.fields(change))) == .changed(change))
    }

    @Test func theRoundTripsCoverEveryKind() throws {
        #expect(Set(try Self.weatherChanges.compactMap { try WireCoding.fields($0)["kind"]?.stringValue }) == Set(WeatherChange.Kind.allCases.map(\.rawValue)))
        #expect(Set(try Self.podcastsChanges.compactMap { try WireCoding.fields($0)["kind"]?.stringValue }) == Set(PodcastsChange.Kind.allCases.map(\.rawValue)))
    }

    @Test func whatTheEncodingLeavesOutDoesNotComeBack() throws {
        // Times travel in whole seconds.
        var reading = Self.reading
        reading.observedAt = Self.second.addingTimeInterval(0.4)
        #expect(Self.weatherChange(try Self.overTheWire(WireCoding.fields(WeatherChange.reading(reading)))) == .reading(Self.reading))
        var episode = Self.episode
        episode.published = Self.second.addingTimeInterval(0.75)
        #expect(Self.podcastsChange(try Self.overTheWire(WireCoding.fields(PodcastsChange.newEpisodes(podcastID: "p", [episode]))))
                == .newEpisodes(podcastID: "p", [Self.episode]))
        // A feed's password never leaves the daemon.
        let withPassword = Podcast(id: "p", title: "Show", author: "A", feedURL: "https://me:secret@example.org/feed")
        let told = Podcast(id: "p", title: "Show", author: "A", feedURL: "https://me@example.org/feed")
        #expect(Self.podcastsChange(try Self.overTheWire(WireCoding.fields(PodcastsChange.subscribed(withPassword)))) == .subscribed(told))
        #expect(Self.podcastsChange(try Self.overTheWire(WireCoding.fields(PodcastsChange.renamed(withPassword)))) == .renamed(told))
        // Counts are `u`.
        #expect(Self.podcastsChange(try Self.overTheWire(WireCoding.fields(PodcastsChange.olderEpisodes(podcastID: "p", count: Int(UInt32.max) + 5))))
                == .olderEpisodes(podcastID: "p", count: Int(UInt32.max)))
    }

    @Test func aResyncDecodesToTheViewsSlice() throws {
        let state = WeatherState(units: .imperial, savedLocations: ["Berlin"], readings: ["Berlin": Self.reading, "Paris": Self.reading],
                                 failures: ["Atlantis": "no such place"])
        let resync = try Self.overTheWire(GoldenCases.resync(try WeatherCodec.snapshot(state, for: WeatherViewOptions(location: "Berlin"))))
        #expect(Self.weatherUpdate(resync) == .resynchronised(WeatherState(units: .imperial, savedLocations: ["Berlin"], readings: ["Berlin": Self.reading])))
        let podcasts = PodcastsState(podcasts: ["p": Self.podcast], episodes: ["p-1": Self.episode], settings: PodcastSettings(notify: true))
        let all = try Self.overTheWire(GoldenCases.resync(try PodcastsCodec.snapshot(podcasts, for: PodcastsViewOptions(podcast: nil))))
        #expect(Self.podcastsUpdate(all) == .resynchronised(podcasts))
    }

    @Test func aChangeTooLargeForAMessageIsToldByItsKind() throws {
        let marker = try Self.overTheWire(GoldenCases.tooLarge(WireCoding.fields(PodcastsChange.newEpisodes(podcastID: "p", [Self.episode]))))
        #expect(marker == ["kind": Value.string("tooLarge"), "was": Value.string("newEpisodes")])
        #expect(Self.podcastsUpdate(marker) == .tooLarge(was: "newEpisodes"))
        #expect(Self.weatherUpdate(marker) == .tooLarge(was: "newEpisodes"))
    }

    static let malformed: [[String: Value]] = [
        [:], ["kind": .int32(1)], ["kind": .string("weather")], ["kind": .string("resync")], ["kind": .string("resync"), "state": .string("x")],
        ["kind": .string("tooLarge")], ["kind": .string("loading"), "refresh": .boolean(false)],
        ["kind": .string("reading"), "location": .string("Berlin")], ["kind": .string("reading"), "reading": .string("Berlin")],
        ["kind": .string("reading"), "reading": .stringVariantDictionary(["placeName": .string("no location")])],
        ["kind": .string("failed"), "location": .string("Berlin")], ["kind": .string("units"), "units": .string("kelvin")],
        ["kind": .string("units"), "units": .int32(1)], ["kind": .string("provider"), "provider": .string("oracle")],
        ["kind": .string("savedLocations"), "savedLocations": .string("Berlin")],
        ["kind": .string("forgotten"), "locations": .array(.int32, [.int32(1)])],
        ["kind": .string("subscribed"), "podcast": .string("p")], ["kind": .string("renamed"), "subscription": .stringVariantDictionary(["title": .string("no id")])],
        ["kind": .string("unsubscribed")], ["kind": .string("newEpisodes"), "podcast": .string("p")],
        ["kind": .string("newEpisodes"), "podcast": .string("p"), "episodes": .array(.dictionary(key: .string, value: .variant), [.stringVariantDictionary(["title": .string("no id")])])],
        ["kind": .string("playState"), "episode": .string("e"), "podcast": .string("p"), "played": .string("yes"), "position": .double(1)],
        ["kind": .string("playState"), "episode": .string("e"), "podcast": .string("p"), "played": .boolean(true)],
        ["kind": .string("failed"), "podcast": .string("p")], ["kind": .string("downloaded"), "episode": .string("e"), "podcast": .string("p")],
        ["kind": .string("settings"), "settings": .boolean(true)], ["kind": .string("podcastSettings"), "settings": .stringVariantDictionary([:])],
        ["kind": .string("kept"), "episode": .string("e"), "podcast": .string("p"), "kept": .uint32(1)],
        ["kind": .string("allPlayed"), "podcast": .string("p"), "count": .string("all")], ["kind": .string("olderEpisodes"), "count": .uint32(1)],
    ]

    @Test(arguments: malformed)
    func anAsvThatIsNoChangeDecodesToNil(_ data: [String: Value]) throws {
        let data = try Self.overTheWire(data)
        #expect(Self.weatherUpdate(data) == nil)
        #expect(Self.podcastsUpdate(data) == nil)
    }

    /// Every field of every change, replaced by values of other types: decoding never traps.
    @Test func oddValuesInAnyFieldNeverTrap() throws {
        let odd: [Value] = [.boolean(true), .int32(-1), .uint64(.max), .double(.nan), .string(""), .array(.string, []),
                            .dictionary(key: .string, value: .variant, []), .variant(.variant(.int16(3))), .structure([.byte(1)])]
        var decoded = 0
        for change in try Self.weatherChanges.map(WireCoding.fields) + Self.podcastsChanges.map(WireCoding.fields) {
            for key in change.keys {
                for value in odd {
                    var fields = change
                    fields[key] = value
                    if Self.weatherUpdate(fields) != nil || Self.podcastsUpdate(fields) != nil { decoded += 1 }
                }
            }
        }
        #expect(decoded > 0, "some odd values are still a change (an empty list of places, a lenient settings dictionary)")
    }
}

extension ChangeCodecTests {
    static func weatherChange(_ fields: [String: Value]) -> WeatherChange? { try? WireCoding.decode(WeatherChange.self, fromFields: fields) }
    static func podcastsChange(_ fields: [String: Value]) -> PodcastsChange? { try? WireCoding.decode(PodcastsChange.self, fromFields: fields) }
    static func weatherUpdate(_ fields: [String: Value]) -> ViewUpdate<WeatherState, WeatherChange>? {
        try? WireCoding.decode(ViewUpdate<WeatherState, WeatherChange>.self, fromFields: fields)
    }
    static func podcastsUpdate(_ fields: [String: Value]) -> ViewUpdate<PodcastsState, PodcastsChange>? {
        try? WireCoding.decode(ViewUpdate<PodcastsState, PodcastsChange>.self, fromFields: fields)
    }
}
