import AlmanacCore
import AlmanacWire
import AlmanacModels
import DBus
import Foundation
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct CodecTests {
    static let reading = WeatherReading(
        location: "Berlin", placeName: "Berlin, Germany", latitude: 52.52, longitude: 13.41, temperature: 9.5,
        apparentTemperature: 7.25, humidity: 81, windSpeed: 14.4, windDirection: 250, precipitation: 0.2,
        weatherCode: 61, isDay: false, observedAt: Date(timeIntervalSince1970: 1_800_000_000)
    )

    @Test func weatherStateRoundTrips() throws {
        let state = WeatherState(units: .imperial, savedLocations: ["Berlin", "Paris"], readings: ["Berlin": Self.reading],
                                 failures: ["Atlantis": "unknown place"])
        #expect(try WireCoding.decode(WeatherState.self, fromFields: WireCoding.fields(state)) == state)
        #expect(try WireCoding.decode(WeatherReading.self, from: WireCoding.value(Self.reading)) == Self.reading)
    }

    @Test func aReadingCarriesTwoDaysOfHoursOnTheBus() throws {
        var reading = Self.reading
        reading.hourly = (0..<WeatherReading.maximumHours).map { index in
            HourlyForecast(time: Date(timeIntervalSince1970: 1_800_000_000 + Double(index) * 3600), temperature: Double(index % 20),
                           precipitationProbability: 10, precipitation: 0, weatherCode: 3, windSpeed: 5, isDay: true)
        }
        let decoded = try WireCoding.decode(WeatherReading.self, from: WireCoding.value(reading))
        #expect(decoded.hourly == Array(reading.hourly.prefix(WeatherReading.hoursOnTheBus)))
    }

    @Test func pollenRoundTripsAndIsLeftOutWhereThereIsNone() throws {
        var reading = Self.reading
        let observed = Date(timeIntervalSince1970: 1_800_000_000)
        reading.airQuality = AirQuality(europeanAQI: 21, observedAt: observed, fetchedAt: observed,
                                        pollen: Pollen(alder: 3, birch: 85.5, grass: 25, mugwort: 0, olive: nil, ragweed: 0))
        #expect(try WireCoding.decode(WeatherReading.self, from: WireCoding.value(reading)) == reading)
        let pollen = try WireCoding.value(reading).stringKeyedEntries?["airQuality"]?.stringKeyedEntries?["pollen"]?.stringKeyedEntries
        #expect(pollen?["birch"]?.unwrapped == .double(85.5) && pollen?["olive"] == nil && pollen?.count == 5)
        // Air without pollen (outside Europe) has no `pollen` key at all.
        reading.airQuality?.pollen = nil
        #expect(try WireCoding.value(reading).stringKeyedEntries?["airQuality"]?.stringKeyedEntries?["pollen"] == nil)
        #expect(try WireCoding.decode(WeatherReading.self, from: WireCoding.value(reading)) == reading)
    }

    @Test func aViewHearsOnlyItsPlaceButEveryUnitChange() throws {
        let reading = WeatherChange.reading(Self.reading)
        #expect(try WeatherCodec.slice(reading, for: WeatherViewOptions(location: "Berlin"))?["kind"] == .string("reading"))
        #expect(try WeatherCodec.slice(reading, for: WeatherViewOptions(location: "Paris")) == nil)
        #expect(try WeatherCodec.slice(reading, for: WeatherViewOptions(location: nil)) != nil)
        #expect(try WeatherCodec.slice(.units(.metric), for: WeatherViewOptions(location: "Paris"))?["units"] == .string("metric"))
        #expect(try WeatherCodec.slice(.failed(location: "Paris", message: "x"), for: WeatherViewOptions(location: "Berlin")) == nil)
    }

    @Test func weatherSubmissionsAreReadStrictly() throws {
        #expect(try WeatherCodec.submission(["units": .string("imperial")]) == .units(.imperial))
        #expect(try WeatherCodec.submission(["locations": .array(.string, [.string("Oslo")])]) == .savedLocations(["Oslo"]))
        func refusal(_ values: [String: Value]) throws -> String {
            try #require(throws: BusError.self) { _ = try WeatherCodec.submission(values) }.message
        }
        #expect(try refusal([:]).hasPrefix("Submit one change at a time"))
        #expect(try refusal(["units": .string("metric"), "locations": .array(.string, [])]).hasPrefix("Submit one change at a time"))
        #expect(try refusal(["units": .string("kelvin")]) == "'units' must be \"metric\" or \"imperial\", not \"kelvin\".")
        // Every setting's refusal lists its values, as they were written by hand before `choice`.
        #expect(try refusal(["provider": .string("x")]) == "'provider' must be \"open-meteo\" or \"met-norway\", not \"x\".")
        #expect(try refusal(["rainNotify": .string("x")]) == "'rainNotify' must be \"off\", \"15m\", \"30m\" or \"60m\", not \"x\".")
        #expect(try refusal(["weatherAlerts": .string("x")]) == "'weatherAlerts' must be \"off\", \"severe\" or \"all\", not \"x\".")
        #expect(try refusal(["windUnit": .string("x")]) == "'windUnit' must be \"auto\", \"km/h\", \"m/s\", \"mph\", \"kn\" or \"bft\", not \"x\".")
        #expect(try refusal(["precipitationUnit": .string(String(repeating: "y", count: 50))]) == "'precipitationUnit' must be \"auto\", \"mm\" or \"in\", not \"\(String(repeating: "y", count: 40))\".")
        #expect(try WeatherCodec.submission(["windUnit": .string("bft")]) == .windUnit(.beaufort))
        #expect(try refusal(["locations": .array(.int32, [.int32(1)])]) == "'locations' must be a list of strings (as), not 'ai'.")
        #expect(try refusal(["colour": .string("red")]) == "Unknown weather submission key 'colour'; accepted: units, provider, locations, rainNotify, windUnit, precipitationUnit, weatherAlerts.")
    }

    @Test func podcastsStateRoundTripsAndSlicesByPodcast() throws {
        let podcast = Podcast(id: "p", title: "Show", author: "A", feedURL: "demo:p")
        let episode = Episode(id: "e1", podcastID: "p", title: "One", published: Date(timeIntervalSince1970: 1_800_000_000),
                              duration: 61, isNew: false, played: true, position: 12.5)
        let state = PodcastsState(podcasts: ["p": podcast], episodes: ["e1": episode])
        #expect(try WireCoding.decode(PodcastsState.self, fromFields: WireCoding.fields(state)) == state)
        let play = PodcastsChange.playState(episodeID: "e1", podcastID: "p", played: true, position: 3)
        #expect(try PodcastsCodec.slice(play, for: PodcastsViewOptions(podcast: "p")) != nil)
        #expect(try PodcastsCodec.slice(play, for: PodcastsViewOptions(podcast: "other")) == nil)
        #expect(try PodcastsCodec.slice(.newEpisodes(podcastID: "other", []), for: PodcastsViewOptions(podcast: "p")) == nil)
    }

    @Test func podcastSubmissionsNeedAnEpisodeAndTakeAnyNumber() throws {
        let submission = try PodcastsCodec.submission(["episode": .string("e1"), "position": .uint32(30), "played": .boolean(false)])
        #expect(submission == .playState(PlayStateSubmission(episodeID: "e1", played: false, position: 30, resumes: true)), "a client's position is a resume")
        #expect(try PodcastsCodec.submission(["notify": .boolean(true), "playedAt": .double(0.9)]) == .settings(SettingsSubmission(notify: true, playedAt: 0.9)))
        // Settings and play state do not mix, and settings keep their types.
        #expect(throws: BusError.self) { _ = try PodcastsCodec.submission(["notify": .boolean(true), "episode": .string("e1")]) }
        #expect(throws: BusError.self) { _ = try PodcastsCodec.submission(["notify": .string("on")]) }
        #expect(throws: BusError.self) { _ = try PodcastsCodec.submission(["played": .boolean(true)]) }
        #expect(throws: BusError.self) { _ = try PodcastsCodec.submission(["episode": .string("e1"), "position": .double(.infinity)]) }
        #expect(throws: BusError.self) { _ = try PodcastsCodec.submission(["episode": .string("e1"), "played": .string("yes")]) }
    }

    @Test func optionStringsAreLimitedInBytes() throws {
        let reader = try OptionsReader(["location": .string(String(repeating: "é", count: 513))], allowed: ["location"], what: "view option")
        let error = try #require(throws: BusError.self) { _ = try reader.string("location") }
        #expect(error.message == "'location' is 1026 bytes long; at most 1024 are accepted.")
        let fits = try OptionsReader(["location": .string(String(repeating: "é", count: 512))], allowed: ["location"], what: "view option")
        #expect(try fits.string("location")?.count == 512)
        #expect(throws: BusError.self) { _ = try OptionsReader(["x": .string("y")], allowed: [], what: "view option") }
    }

    /// Every integer type's whole range reads as a number for the caller to range-check (a
    /// `t` past `Int64.max` too, which was "not a number … not 't'"); not-a-number and the
    /// infinities are refused naming them; -0 reads as 0.
    @Test func numbersAtTheEdgesOfTheirTypesAreReadAndNonFiniteOnesRefused() throws {
        let reader = try OptionsReader(["t": .uint64(.max), "x": .int64(.min), "i": .int32(.min), "z": .double(-0.0), "n": .double(.nan),
                                        "inf": .double(-.infinity), "s": .string("1")], allowed: ["t", "x", "i", "z", "n", "inf", "s"], what: "test option")
        #expect(try reader.number("t") == Double(UInt64.max))
        #expect(try reader.number("x") == -9_223_372_036_854_775_808)
        #expect(try reader.number("i") == -2_147_483_648)
        #expect(try reader.number("z")?.sign == .plus)
        #expect(try #require(throws: BusError.self) { _ = try reader.number("n") }.message == "'n' must be a finite number, not nan.")
        #expect(try #require(throws: BusError.self) { _ = try reader.number("inf") }.message == "'inf' must be a finite number, not -inf.")
        #expect(try #require(throws: BusError.self) { _ = try reader.number("s") }.name == .invalidArgs)
    }
}
