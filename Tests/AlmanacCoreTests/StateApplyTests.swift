import AlmanacModels
import Foundation
import TestHarness
import Testing

/// The documents' one reducer, `WeatherState.apply` and `PodcastsState.apply`: what each
/// change does to a state, the same in the daemon and in `almanac watch`.
@Suite(.onTestThreads, .timeLimit(.hang)) struct StateApplyTests {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    static func reading(_ location: String, _ temperature: Double = 10) -> WeatherReading {
        WeatherReading(location: location, placeName: location, latitude: 1, longitude: 2, temperature: temperature, apparentTemperature: 9,
                       humidity: 50, windSpeed: 3, windDirection: 90, precipitation: 0, weatherCode: 1, isDay: true, observedAt: date)
    }

    @Test func aReadingReplacesThePlacesReadingAndClearsItsFailure() {
        var state = WeatherState(readings: ["Berlin": Self.reading("Berlin", 1)], failures: ["Berlin": "timeout", "Paris": "timeout"])
        let change = state.apply(.reading(Self.reading("Berlin", 2)))
        #expect(change == .reading(Self.reading("Berlin", 2)))
        #expect(state.readings == ["Berlin": Self.reading("Berlin", 2)])
        #expect(state.failures == ["Paris": "timeout"])
    }

    @Test func aFailureKeepsTheLastGoodReading() {
        var state = WeatherState(readings: ["Berlin": Self.reading("Berlin")])
        state.apply(.failed(location: "Berlin", message: "HTTP 500"))
        #expect(state.readings["Berlin"] == Self.reading("Berlin"))
        #expect(state.failures == ["Berlin": "HTTP 500"])
    }

    @Test func settingsChangesSetThemAndForgottenPlacesGo() {
        var state = WeatherState(readings: ["Berlin": Self.reading("Berlin"), "Oslo": Self.reading("Oslo")], failures: ["Oslo": "x", "Rome": "y"])
        state.apply(.units(.imperial))
        state.apply(.provider(.metNorway))
        state.apply(.savedLocations(["Berlin"]))
        state.apply(.forgotten(["Oslo", "Rome"]))
        #expect(state == {
            var expected = WeatherState(units: .imperial, savedLocations: ["Berlin"], readings: ["Berlin": Self.reading("Berlin")])
            expected.provider = .metNorway
            return expected
        }())
    }

    static let show = Podcast(id: "p", title: "Show", author: "A", feedURL: "https://example.org/p")
    static let other = Podcast(id: "q", title: "Other", author: "B", feedURL: "https://example.org/q")

    static func episode(_ id: String, of podcast: String = "p", _ seconds: Double = 0, file: String? = nil) -> Episode {
        Episode(id: id, podcastID: podcast, title: id, published: date.addingTimeInterval(seconds), duration: 100, file: file)
    }

    static var library: PodcastsState {
        PodcastsState(podcasts: ["p": show, "q": other],
                      episodes: ["p1": episode("p1"), "p2": episode("p2", 1), "q1": episode("q1", of: "q", 2)], episodeCount: 10,
                      preferences: ["p": PodcastPreferences(autoDownload: true)])
    }

    @Test func subscribingAndRenamingSetThePodcast() {
        var state = PodcastsState()
        state.apply(.subscribed(Self.show))
        var renamed = Self.show
        renamed.title = "New title"
        state.apply(.renamed(renamed))
        #expect(state.podcasts == ["p": renamed])
    }

    @Test func anUnsubscriptionTakesThePodcastItsSettingsAndItsEpisodes() {
        var state = Self.library
        state.apply(.unsubscribed(podcastID: "p"))
        #expect(state.podcasts == ["q": Self.other])
        #expect(state.preferences.isEmpty)
        #expect(state.episodes.keys.sorted() == ["q1"])
        #expect(state.episodeCount == 8)
    }

    @Test func newEpisodesJoinTheWindowAndAreCounted() {
        var state = Self.library
        state.apply(.newEpisodes(podcastID: "p", [Self.episode("p3", 5)]))
        #expect(state.episodes["p3"] == Self.episode("p3", 5))
        #expect(state.episodeCount == 11)
        state.apply(.olderEpisodes(podcastID: "p", count: 4))
        #expect(state.episodeCount == 15, "older episodes are counted; they reach the list that asked as its page")
        var full = PodcastsState()
        full.apply(.newEpisodes(podcastID: "p", (0...PodcastsState.window).map { Self.episode("e\($0)", Double($0)) }))
        #expect(full.episodes.count == PodcastsState.window)
        #expect(full.episodes["e0"] == nil, "the oldest leaves the window")
    }

    @Test func aPlayStateIsTheEpisodeSeen() {
        var state = Self.library
        state.apply(.playState(episodeID: "p1", podcastID: "p", played: true, position: 42))
        #expect(state.episodes["p1"]?.played == true)
        #expect(state.episodes["p1"]?.position == 42)
        #expect(state.episodes["p1"]?.isNew == false)
        state.apply(.playState(episodeID: "elsewhere", podcastID: "p", played: true, position: 1))
        #expect(state.episodes["elsewhere"] == nil, "an episode outside the window stays outside")
    }

    @Test func aFileBelongsToOneEpisode() {
        var state = Self.library
        state.episodes["p2"]?.file = "/d/a.mp3"
        state.apply(.downloaded(episodeID: "p1", podcastID: "p", file: "/d/a.mp3"))
        #expect(state.episodes["p1"]?.file == "/d/a.mp3")
        #expect(state.episodes["p2"]?.file == nil)
        state.apply(.downloaded(episodeID: "p1", podcastID: "p", file: nil))
        #expect(state.episodes["p1"]?.file == nil)
    }

    @Test func keptAndAllPlayedMarkEpisodes() {
        var state = Self.library
        state.apply(.kept(episodeID: "q1", podcastID: "q", kept: true))
        #expect(state.episodes["q1"]?.kept == true)
        state.apply(.allPlayed(podcastID: "p", count: 2))
        #expect(state.episodes.values.filter(\.played).map(\.id).sorted() == ["p1", "p2"])
        #expect(state.episodes["p1"]?.isNew == false)
        state.apply(.allPlayed(podcastID: nil, count: 1))
        #expect(state.episodes.values.allSatisfy { $0.played })
    }

    @Test func settingsAndAPodcastsOwnSettingsAreSet() {
        var state = Self.library
        state.apply(.settings(PodcastSettings(notify: true, playedAt: 0.8)))
        #expect(state.settings == PodcastSettings(notify: true, playedAt: 0.8))
        state.apply(.podcastSettings(podcastID: "q", PodcastPreferences(keep: 3)))
        state.apply(.podcastSettings(podcastID: "p", PodcastPreferences()))
        #expect(state.preferences == ["q": PodcastPreferences(keep: 3)], "the defaults are kept as no settings of its own")
    }

    @Test func aFailedReadChangesNothing() {
        var state = Self.library
        state.apply(.failed(podcastID: "p", message: "HTTP 404"))
        #expect(state == Self.library)
    }
}
