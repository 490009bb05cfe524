import AlmanacModels
@testable import AlmanacViews
import Foundation
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct ViewDataTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let reading = WeatherReading(
        location: "berlin", placeName: "Berlin", latitude: 52.52, longitude: 13.41, temperature: 21.34,
        apparentTemperature: -3.96, humidity: 44.6, windSpeed: 16.09, windDirection: 315, precipitation: 2.54,
        weatherCode: 61, isDay: true, observedAt: now.addingTimeInterval(-180)
    )

    @Test func weatherInMetric() {
        let data = WeatherNowViewData(reading: Self.reading, units: .metric, now: Self.now)
        #expect(data.temperature == "21.3°C")
        #expect(data.feelsLike == "-4.0°C")
        #expect(data.condition == "Slight rain" && data.symbol == "🌦")
        #expect(data.humidity == "45%")
        #expect(data.wind == "16 km/h NW")
        #expect(data.precipitation == "2.5 mm")
        #expect(data.observed == "3 minutes ago")
        #expect(data.place == "Berlin" && data.location == "berlin")
    }

    /// `fieldNames` is what `--help` lists and what templates are checked against: it must
    /// name exactly the fields there are.
    @Test func everyViewsFieldNamesAreItsFields() {
        let now = WeatherNowViewData(reading: Self.reading, units: .metric, now: Self.now)
        #expect(Set(now.fields.keys) == Set(WeatherNowViewData.fieldNames) && WeatherNowViewData.fieldNames.count == now.fields.count)
        #expect(now.fields["updated"]?.hasPrefix("updated") == false)
        let episode = EpisodeViewData(episode: Episode(id: "e", podcastID: "p", title: "T", published: Self.now, duration: nil), podcast: nil, now: Self.now)
        #expect(Set(episode.fields.keys) == Set(EpisodeViewData.fieldNames))
        let podcast = PodcastPreviewViewData(podcast: Podcast(id: "p", title: "T", author: "A", feedURL: "https://f"))
        #expect(Set(podcast.fields.keys) == Set(PodcastPreviewViewData.fieldNames))
        let download = DownloadProgressViewData(job: DownloadJob(id: 1, episodeID: "e", podcastID: "p", url: "https://x", folder: "/d", name: "E", owner: "",
                                                                state: .queued, received: 0, total: 0), bytesPerSecond: nil)
        #expect(Set(download.fields.keys) == Set(DownloadProgressViewData.fieldNames))
    }

    @Test func weatherInImperial() {
        let data = WeatherNowViewData(reading: Self.reading, units: .imperial, now: Self.now)
        #expect(data.temperature == "70.4°F")
        #expect(data.feelsLike == "24.9°F")
        #expect(data.wind == "10 mph NW")
        #expect(data.precipitation == "0.10 in")
    }

    @Test(arguments: [(0.0, "N"), (11.0, "N"), (12.0, "NNE"), (90.0, "E"), (180.0, "S"), (350.0, "N"), (-90.0, "W"), (720.0, "N")])
    func compassPoints(_ degrees: Double, _ point: String) {
        #expect(WeatherNowViewData.compass(degrees) == point)
    }

    @Test func everyWMOCodeHasWordsAndUnknownOnesSaySo() {
        for code in [0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 77, 80, 81, 82, 85, 86, 95, 96, 99] {
            #expect(!WeatherCondition(code: code).text.hasPrefix("Unknown"), "code \(code)")
        }
        #expect(WeatherCondition(code: 42).text == "Unknown conditions (code 42)")
    }

    @Test(arguments: [(10.0, "just now"), (60.0, "1 minute ago"), (150.0, "3 minutes ago"), (3_600.0, "1 hour ago"),
                      (7_000.0, "2 hours ago"), (86_400.0, "1 day ago"), (5 * 86_400.0, "5 days ago"), (-100.0, "in the future")])
    func relativeTimes(_ secondsAgo: Double, _ text: String) {
        #expect(relativeTime(Self.now.addingTimeInterval(-secondsAgo), now: Self.now) == text)
    }

    @Test(arguments: [(45.0, "0:45"), (725.0, "12:05"), (3_723.0, "1:02:03"), (-1.0, "?")])
    func clockDurations(_ seconds: Double, _ text: String) {
        #expect(clockDuration(seconds) == text)
    }

    @Test func episodeProgressIsWorded() {
        let podcast = Podcast(id: "p", title: "The Show", author: "A", feedURL: "demo:p")
        var episode = Episode(id: "e", podcastID: "p", title: "Pilot", published: Self.now.addingTimeInterval(-7_200), duration: 1_800)
        #expect(EpisodeViewData(episode: episode, podcast: podcast, now: Self.now).progress == "new")
        episode.position = 810
        episode.isNew = false
        let data = EpisodeViewData(episode: episode, podcast: podcast, now: Self.now)
        #expect(data.progress == "45% complete" && data.remaining == "16 min left")
        #expect(data.podcast == "The Show" && data.published == "2 hours ago" && data.duration == "30:00")
        episode.played = true
        #expect(EpisodeViewData(episode: episode, podcast: nil, now: Self.now).progress == "played")
        #expect(EpisodeViewData(episode: episode, podcast: nil, now: Self.now).podcast == "p")
    }

    @Test func templatesFillFieldsAndFallBack() throws {
        let template = try Template("{{location}}: {{temperature}} ({{missing|n/a}}, {{gone}}) {{{{literal}}")
        #expect(template.render(["location": "Berlin", "temperature": "21°C"]) == "Berlin: 21°C (n/a, ) {{literal}}")
        #expect(template.fieldNames == ["location", "temperature", "missing", "gone"])
        #expect(try Template("{{gone|-}}").render(["gone": ""]) == "-")
        #expect(throws: TemplateError.self) { try Template("{{location") }
        #expect(throws: TemplateError.self) { try Template("{{ }}") }
    }

    @Test func sectionsShowWhenTheirFieldIsSetOrEmpty() throws {
        let template = try Template("{{temperature}}{{#stale}} (stale, {{updated}}){{/stale}}{{^stale}} fresh{{/stale}}")
        #expect(template.render(["temperature": "21°C", "stale": "stale", "updated": "2 hours ago"]) == "21°C (stale, 2 hours ago)")
        #expect(template.render(["temperature": "21°C", "stale": ""]) == "21°C fresh")
        // A field the data does not have counts as empty.
        #expect(template.render(["temperature": "21°C"]) == "21°C fresh")
        #expect(template.fieldNames == ["temperature", "stale", "updated", "stale"])
        // Sections nest, and a closing tag must match the innermost open one.
        let nested = try Template("{{#a}}A{{^b}}-no-b{{/b}}{{#b}}+b{{/b}}{{/a}}")
        #expect(nested.render(["a": "1", "b": ""]) == "A-no-b")
        #expect(nested.render(["a": "1", "b": "x"]) == "A+b")
        #expect(nested.render(["b": "x"]) == "")
        #expect(nested.fieldNames == ["a", "b", "b"])
        #expect(throws: TemplateError.self) { try Template("{{#stale}}open") }
        #expect(throws: TemplateError.self) { try Template("{{/stale}}") }
        #expect(throws: TemplateError.self) { try Template("{{#a}}{{#b}}{{/a}}{{/b}}") }
        #expect(throws: TemplateError.self) { try Template("{{#}}x{{/}}") }
        // Unknown names in sections are found like any other.
        #expect(try Template("{{#nosuch}}x{{/nosuch}}").unknownFields(among: ["stale"]) == ["nosuch"])
    }
}

@Suite(.onTestThreads, .timeLimit(.hang)) struct FixedPointTests {
    @Test(arguments: [(21.34, 1, "21.3"), (21.35, 1, "21.4"), (-3.96, 1, "-4.0"), (-0.04, 1, "0.0"), (0.1, 2, "0.10"),
                      (16.09, 0, "16"), (2.5, 0, "3"), (-2.5, 0, "-3"), (1_000_000.25, 1, "1000000.3"), (7, 3, "7.000")])
    func formatsWithAFixedNumberOfDecimals(_ value: Double, _ decimals: Int, _ text: String) {
        #expect(fixedPoint(value, decimals: decimals) == text)
    }

    @Test func nonFiniteValuesDoNotCrash() {
        #expect(fixedPoint(.nan, decimals: 1) == "?")
        #expect(fixedPoint(.infinity, decimals: 1) == "∞")
        #expect(fixedPoint(1e300, decimals: 1) == "1e+300")
    }
}

/// What `--json` prints: machine values beside the words (docs/cli.md, "JSON keys").
@Suite(.onTestThreads, .timeLimit(.hang)) struct JSONValueTests {
    static let now = ViewDataTests.now

    @Test func isoTimestampsCarryTheirOffset() {
        let date = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z
        #expect(isoTimestamp(date, utcOffset: 0) == "2027-01-15T08:00:00Z")
        #expect(isoTimestamp(date, utcOffset: 3_600) == "2027-01-15T09:00:00+01:00")
        #expect(isoTimestamp(date, utcOffset: -(9 * 3_600 + 30 * 60)) == "2027-01-14T22:30:00-09:30")
        #expect(isoTimestamp(Date(timeIntervalSince1970: -1), utcOffset: 0) == "1969-12-31T23:59:59Z")
        #expect(unixSeconds(date.addingTimeInterval(0.9)) == 1_800_000_000)
    }

    @Test func anEpisodeHasTimesSecondsAndFlags() {
        var episode = Episode(id: "e1", podcastID: "p", title: "One", published: Self.now.addingTimeInterval(-3 * 86_400),
                              duration: 1_800, isNew: false, position: 450)
        let json = EpisodeViewData(episode: episode, podcast: nil, now: Self.now, clockOffset: { _ in 7_200 }).json
        #expect(json["published"] == .string("2027-01-12T10:00:00+02:00"))
        #expect(json["publishedUnix"] == .integer(1_800_000_000 - 3 * 86_400))
        #expect(json["publishedText"] == .string("3 days ago"))
        #expect(json["duration"] == .number(1_800) && json["durationText"] == .string("30:00"))
        #expect(json["position"] == .number(450) && json["remaining"] == .number(1_350))
        #expect(json["progress"] == .number(0.25) && json["progressText"] == .string("25% complete"))
        #expect(json["remainingText"] == .string("22 min left"))
        // Words only where there are some, null otherwise, each beside its number.
        let fresh = EpisodeViewData(episode: Episode(id: "e2", podcastID: "p", title: "Two", published: Self.now, duration: 600, isNew: false),
                                    podcast: nil, now: Self.now).json
        #expect(fresh["remaining"] == .number(600) && fresh["remainingText"] == .string("10 min left"))
        #expect(fresh["progress"] == .number(0) && fresh["progressText"] == .null)
        #expect(json["played"] == .boolean(false) && json["new"] == .boolean(false) && json["downloaded"] == .boolean(false))
        #expect(json["file"] == .null && json["podcastID"] == .string("p"))
        episode.played = true
        episode.file = "/tmp/one.mp3"
        episode.duration = nil
        let played = EpisodeViewData(episode: episode, podcast: nil, now: Self.now)
        #expect(played.json["progress"] == .number(1) && played.json["played"] == .boolean(true))
        #expect(played.json["duration"] == .null && played.json["remaining"] == .null)
        #expect(played.json["durationText"] == .null && played.json["remainingText"] == .null)
        #expect(played.json["downloaded"] == .boolean(true) && played.json["file"] == .string("/tmp/one.mp3"))
        #expect(played.json["published"] == .string("2027-01-12T08:00:00Z"))
        // The template's flags, for sections.
        #expect(played.fields["played"] == "played" && played.fields["new"] == "" && played.fields["downloaded"] == "downloaded")
    }

    /// A feed that gives no date: not 1970 (how it is kept, so that it sorts last) but unknown.
    @Test func anEpisodeWithoutADateSaysSo() {
        let episode = Episode(id: "e1", podcastID: "p", title: "Undated", published: Date(timeIntervalSince1970: 0), duration: nil)
        let data = EpisodeViewData(episode: episode, podcast: nil, now: Self.now, clockOffset: { _ in 7_200 })
        #expect(data.json["published"] == .null && data.json["publishedUnix"] == .null && data.json["publishedText"] == .string("date unknown"))
        #expect(data.fields["published"] == "", "empty, so that {{published|-}} falls back")
        #expect(EpisodeProgressViewData(episode: episode, now: Self.now).published == "date unknown")
        let detail = EpisodeDetailViewData(record: EpisodeRecord(episode: episode, podcastTitle: "Show", podcast: PodcastDetails(), details: nil), now: Self.now)
        #expect(detail.json["publishedDay"] == .null)
        #expect(detail.lines(width: 80)[1].plain == "Show · date unknown · new", "\(detail.lines(width: 80).map(\.plain))")
    }

    @Test func weatherNowHasNumbersInItsUnits() {
        let metric = WeatherNowViewData(reading: ViewDataTests.reading, units: .metric, now: Self.now, clockOffset: 3_600).json
        #expect(metric["temperature"] == .number(21.34) && metric["temperatureText"] == .string("21.3°C"))
        #expect(metric["windSpeed"] == .number(16.09) && metric["windDirection"] == .number(315))
        #expect(metric["humidity"] == .number(44.6) && metric["precipitation"] == .number(2.54))
        #expect(metric["observed"] == .string("2027-01-15T08:57:00+01:00") && metric["observedText"] == .string("3 minutes ago"))
        #expect(metric["stale"] == .boolean(false) && metric["error"] == .null && metric["units"] == .string("metric"))
        let imperial = WeatherNowViewData(reading: ViewDataTests.reading, units: .imperial, now: Self.now, error: "HTTP 500").json
        #expect(imperial["temperature"] == .number(70.41) && imperial["temperatureText"] == .string("70.4°F"))
        #expect(imperial["windSpeed"] == .number(10) && imperial["precipitation"] == .number(0.1))
        #expect(imperial["stale"] == .boolean(true) && imperial["error"] == .string("HTTP 500"))
    }

    @Test func nonFiniteNumbersAreNull() {
        #expect(JSONValue.number(.nan, decimals: 2) == .null && JSONValue.number(nil, decimals: 2) == .null)
        #expect(JSONValue.number(.infinity, decimals: 2) == .null && JSONValue.text("") == .null)
    }
}
