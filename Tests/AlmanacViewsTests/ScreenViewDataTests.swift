import AlmanacModels
import AlmanacViews
import Foundation
import TestHarness
import Testing

/// The screens the CLI lays out, made from the documents' state by pure transformations:
/// what the renderer gets is all it shows.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ScreenViewDataTests {
    static let now = ForecastViewDataTests.now

    static func hourly(_ count: Int) -> [HourlyForecast] {
        (0..<count).map {
            HourlyForecast(time: now.addingTimeInterval(Double($0 - 1) * 3_600), temperature: Double($0), precipitationProbability: 10,
                           precipitation: 0, weatherCode: 0, windSpeed: 5, isDay: true)
        }
    }

    @Test func aWeatherScreenKeepsTheOrderAskedForAndSaysWhyAPlaceHasNoReading() {
        var oslo = ForecastViewDataTests.reading(fetched: 600)
        oslo.hourly = Self.hourly(24)
        let state = WeatherState(readings: ["Oslo": oslo], failures: ["Atlantis": "no such place", "Oslo": "timed out"])
        let screen = WeatherScreenViewData(state: state, locations: ["Atlantis", "Oslo", "Berlin"], now: Self.now, clockOffset: { _ in 3_600 })
        #expect(screen.entries.count == 3)
        #expect(screen.unavailable.map(\.text) == ["Atlantis: no such place", "Berlin: no reading yet"])
        #expect(screen.unavailable.map { $0.waybar != nil } == [true, false], "only a failure goes to the bar")
        let place = try! #require(screen.places.first)
        #expect(place.now.place == "Oslo, Norway" && place.now.error == "timed out" && place.now.stale)
        #expect(place.now.time == localClock(oslo.fetchedAt, utcOffset: 3_600), "the fetch time on the user's clock")
        #expect(place.today?.date == "2027-01-15")
        // Every second hour from the current one (the hour that began a whole hour ago is past), six of them.
        #expect(place.hours.count == 6 && place.hours.first?.at == oslo.hourly[1].time && place.hours[1].at == oslo.hourly[3].time)
        #expect(place.waybar(template: nil).class.contains("stale"))
    }

    @Test func withoutPlacesAScreenShowsEveryReadingByName() {
        let state = WeatherState(readings: ["b": ForecastViewDataTests.reading(fetched: 60), "a": ForecastViewDataTests.reading(fetched: 60)])
        let screen = WeatherScreenViewData(state: state, locations: nil, now: Self.now, clockOffset: { _ in 0 })
        #expect(screen.places.count == 2 && screen.unavailable.isEmpty)
        #expect(WeatherScreenViewData(state: WeatherState(), locations: nil, now: Self.now, clockOffset: { _ in 0 }).entries.isEmpty)
    }

    /// No place asked for and none saved: a screen says it has no place (a bar then says how
    /// to add one); a saved place still to be read, or one asked for, is not "no place".
    @Test func aScreenWithNoPlaceAskedForAndNoneSavedHasNoPlace() {
        #expect(WeatherScreenViewData(state: WeatherState(), locations: nil, now: Self.now, clockOffset: { _ in 0 }).hasNoPlace)
        #expect(!WeatherScreenViewData(state: WeatherState(savedLocations: ["Berlin"]), locations: nil, now: Self.now, clockOffset: { _ in 0 }).hasNoPlace)
        #expect(!WeatherScreenViewData(state: WeatherState(), locations: ["Paris"], now: Self.now, clockOffset: { _ in 0 }).hasNoPlace)
        let bar = WaybarViewData.noPlace
        #expect(bar.text == "no place" && bar.tooltip.contains("almanac locations add") && bar.class == ["no-place"])
    }

    @Test func aForecastSaysHowOldItIsAndHowFarItGoes() {
        var reading = ForecastViewDataTests.reading(fetched: 180)
        reading.hourly = Self.hourly(5)
        let view = ForecastViewData(reading: reading, units: .imperial, days: 7, now: Self.now)
        #expect(view.place == "Oslo, Norway" && view.location == "Oslo" && view.updated == "updated 3 minutes ago")
        #expect(view.days.count == 1 && view.days[0].high.hasSuffix("°F"))
        #expect(view.extent(hourly: false) == "1 day" && view.extent(hourly: true) == "next 4 hours")
        #expect(ForecastViewData(reading: reading, units: .metric, days: 0, now: Self.now).days.isEmpty)
    }

    @Test func anEpisodeListIsNewestFirstWithinItsPodcastAndLimit() {
        func episode(_ id: String, _ podcast: String, daysAgo: Double) -> Episode {
            Episode(id: id, podcastID: podcast, title: id.uppercased(), published: Self.now.addingTimeInterval(-86_400 * daysAgo), duration: nil)
        }
        let state = PodcastsState(
            podcasts: ["p": Podcast(id: "p", title: "Garden Weather", author: "", feedURL: "https://f")],
            episodes: ["a": episode("a", "p", daysAgo: 3), "b": episode("b", "p", daysAgo: 1), "c": episode("c", "q", daysAgo: 0),
                       "d": episode("d", "p", daysAgo: 1)]
        )
        let all = EpisodeListViewData(state: state, podcast: nil, limit: 10, now: Self.now, clockOffset: { _ in 0 })
        #expect(all.episodes.map(\.id) == ["c", "d", "b", "a"], "newest first, ties by id")
        #expect(all.episodes[1].podcast == "Garden Weather" && all.episodes[0].podcast == "q", "an unknown podcast shows its id")
        let one = EpisodeListViewData(state: state, podcast: "p", limit: 2, now: Self.now, clockOffset: { _ in 0 })
        #expect(one.episodes.map(\.id) == ["d", "b"])
        let page = EpisodeListViewData(episodes: [episode("a", "p", daysAgo: 3), episode("c", "q", daysAgo: 0)], podcasts: state.podcasts,
                                       now: Self.now, clockOffset: { _ in 0 })
        #expect(page.episodes.map(\.id) == ["a", "c"], "a page keeps the daemon's order")
    }

    @Test func subscriptionsAreListedByTitleIgnoringCase() {
        let list = PodcastPreviewViewData.list([
            Podcast(id: "2", title: "beta", author: "", feedURL: "https://b"), Podcast(id: "1", title: "Alpha", author: "Ann", feedURL: "https://a"),
            Podcast(id: "0", title: "beta", author: "", feedURL: "https://c"),
        ])
        #expect(list.map(\.id) == ["1", "0", "2"] && list[0].byline == "by Ann")
    }

    @Test func theStatusSaysWhatEachDocumentIsDoing() {
        let status = DaemonStatusViewData(version: "0.1.0", owner: ":1.5", provider: "demo", documents: [
            .init(name: "weather", revision: 3, viewCount: 1, loading: true, lastError: ""),
            .init(name: "podcasts", revision: 42, viewCount: 2, loading: false, lastError: "feed gone"),
        ])
        #expect(status.headline == "almanacd 0.1.0 is running as :1.5 (provider: demo)")
        #expect(status.documents.map(\.summary) == ["weather: revision 3, 1 view, loading", "podcasts: revision 42, 2 views"])
        #expect(status.fields["views"] == "3" && status.fields["loading"] == "weather" && status.fields["error"] == "podcasts: feed gone")
        #expect(Set(status.fields.keys) == Set(DaemonStatusViewData.fieldNames))
    }
}
