import AlmanacModels
@testable import AlmanacViews
import Foundation
import TestHarness
import Testing

/// Each view at 120 columns (everything) and at 80 (the compact layout: the least useful
/// fields shortened or gone, nothing wider than the terminal).
@Suite(.onTestThreads, .timeLimit(.hang)) struct CompactLayoutTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC

    static let reading = WeatherReading(
        location: "Berlin", placeName: "Berlin", latitude: 52.52, longitude: 13.41, temperature: 9.66,
        apparentTemperature: 7.2, humidity: 35, windSpeed: 4, windDirection: 180, precipitation: 0,
        weatherCode: 2, isDay: true, observedAt: now.addingTimeInterval(-120), fetchedAt: now.addingTimeInterval(-60),
        hourly: (0..<12).map { hour in
            HourlyForecast(time: now.addingTimeInterval(Double(hour) * 3600), temperature: 9.7 + Double(hour), precipitationProbability: 10,
                           precipitation: 0, weatherCode: hour % 2 == 0 ? 2 : 0, windSpeed: 5, isDay: true)
        },
        daily: [
            DailyForecast(day: "2027-01-15", weatherCode: 2, temperatureMax: 14.2, temperatureMin: 6.2, precipitation: 2.5,
                          precipitationProbability: 40, windSpeedMax: 15, sunrise: now.addingTimeInterval(-3600), sunset: now.addingTimeInterval(8 * 3600)),
            DailyForecast(day: "2027-01-16", weatherCode: 99, temperatureMax: -1.5, temperatureMin: -12.3, precipitation: 12.5,
                          precipitationProbability: 100, windSpeedMax: 45, sunrise: nil, sunset: nil),
        ]
    )

    static func nowView(error: String? = nil) -> WeatherNowViewData {
        WeatherNowViewData(reading: reading, units: .metric, now: now, error: error, clockOffset: 3600)
    }

    @Test func theReadingsTimeIsOnTheUsersClock() {
        #expect(Self.nowView().time == "08:59")
        #expect(Self.nowView().fields["time"] == "08:59")
        #expect(WeatherNowViewData(reading: Self.reading, units: .metric, now: Self.now).time == "")
    }

    @Test func weatherNowAt120And80Columns() {
        let view = Self.nowView()
        #expect(view.line(width: 120).plain == "Berlin  ⛅ Partly cloudy  9.7°C (feels 7.2°C)  humidity 35%  wind 4 km/h S  precipitation 0.0 mm  · 08:59")
        #expect(view.line(width: 80).plain == "Berlin  ⛅ Partly cloudy  9.7°C (feels 7.2°C)  wind 4 km/h S  · 08:59")
        #expect(view.line(width: 40).plain == "Berlin  ⛅ Partly cloudy  9.7°C  · 08:59")
        #expect(view.line(width: 30).plain == "Berlin  ⛅  9.7°C  · 08:59")
        let failing = Self.nowView(error: "HTTP 500 from the provider, which is down for maintenance")
        #expect(failing.line(width: 80).width <= 80)
        #expect(failing.line(width: 80).plain.hasSuffix("(stale)"), "\(failing.line(width: 80).plain)")
        // Why it is stale gives way before the condition, the time and the place.
        #expect(failing.line(width: 80).plain == "Berlin  ⛅ Partly cloudy  9.7°C  · 08:59  (stale)", "\(failing.line(width: 80).plain)")
        for width in 10...140 { #expect(failing.line(width: width).width <= width) }
    }

    @Test func todayAndTheHoursAhead() {
        let today = DayViewData(day: Self.reading.daily[0], units: .metric, utcOffset: 3600)
        // The moon's words go first, then its symbol.
        #expect(today.todayLine(width: 120).plain == "  Today 14.2°C / 6.2°C · 40% chance of 2.5 mm · sunrise 08:00, sunset 17:00 · 🌓 First quarter")
        #expect(today.todayLine(width: 80).plain == "  Today 14.2°C / 6.2°C · 40% chance of 2.5 mm · sunrise 08:00, sunset 17:00 · 🌓")
        #expect(today.todayLine(width: 70).plain == "  Today 14.2°C / 6.2°C · 40% chance of 2.5 mm · sun 08:00–17:00")
        #expect(today.todayLine(width: 60).plain == "  Today 14.2°C / 6.2°C · 40%, 2.5 mm · sun 08:00–17:00")
        #expect(today.todayLine(width: 40).plain == "  Today 14.2°C / 6.2°C · 40%, 2.5 mm")
        let hours = stride(from: 0, to: 12, by: 2).map { HourViewData(hour: Self.reading.hourly[$0], units: .metric, utcOffset: 3600) }
        let wide = HourViewData.strip(hours, width: 120).plain
        #expect(wide == "  09:00 ⛅  9.7°C  11:00 ⛅ 11.7°C  13:00 ⛅ 13.7°C  15:00 ⛅ 15.7°C  17:00 ⛅ 17.7°C  19:00 ⛅ 19.7°C")
        let compact = HourViewData.strip(hours, width: 80).plain
        #expect(compact == "  09:00 ⛅  9.7°C  11:00 ⛅ 11.7°C  13:00 ⛅ 13.7°C  15:00 ⛅ 15.7°C")
        let mixed = [0, 1].map { HourViewData(hour: Self.reading.hourly[$0], units: .metric, utcOffset: 0) }
        #expect(HourViewData.strip(mixed, width: 80).plain == "  08:00 ⛅  9.7°C  09:00 ☀  10.7°C")
    }

    @Test func theForecastTableAt80Columns() {
        let days = Self.reading.daily.map { DayViewData(day: $0, units: .metric, utcOffset: 3600) }
        let wide = Table.days(days).lines(width: 120).map(\.plain)
        #expect(wide == [
            "Day     Conditions                         High      Low   Precip  Chance     Wind",
            "Fri 15  ⛅ Partly cloudy                 14.2°C    6.2°C   2.5 mm     40%  15 km/h",
            "Sat 16  ⛈  Thunderstorm with heavy hail  -1.5°C  -12.3°C  12.5 mm    100%  45 km/h",
        ], "\(wide.joined(separator: "\n"))")
        let narrow = Table.days(days).lines(width: 60).map(\.plain)
        for line in narrow { #expect(displayWidth(line) <= 60) }
        #expect(narrow[0].hasPrefix("Day     Conditions"))
        #expect(narrow[2].contains("Thunderstorm w…") || narrow[2].contains("Thunderst…"), "\(narrow.joined(separator: "\n"))")
    }

    static func episode(_ title: String, podcast: String, file: String? = nil) -> EpisodeViewData {
        let show = Podcast(id: "p", title: podcast, author: "", feedURL: "https://example.com/feed")
        var episode = Episode(id: "e-\(title.count)", podcastID: "p", title: title, published: now.addingTimeInterval(-3 * 86_400), duration: 3_723)
        episode.file = file
        return EpisodeViewData(episode: episode, podcast: show, now: now)
    }

    /// What `line` shows from display column `column` on.
    static func text(_ line: String, at column: Int) -> Substring {
        var used = 0
        var index = line.startIndex
        while index < line.endIndex, used < column {
            used += displayWidth(of: line[index])
            index = line.index(after: index)
        }
        return used == column ? line[index...] : ""
    }

    @Test func episodesAt120And80Columns() throws {
        let episodes = [
            Self.episode("A rather long episode title about the weather in the mountains", podcast: "The Almanac Hour"),
            Self.episode("短い", podcast: "東京ラジオ", file: "/x.mp3"),
        ]
        let wide = Table.episodes(episodes, ids: true).lines(width: 120).map(\.plain)
        #expect(wide[0].hasPrefix("ID    Title"))
        #expect(wide[1].contains("A rather long episode title about the weather in the mountains  The Almanac Hour  1:02:03  3 days ago  new"))
        let compact = Table.episodes(episodes, ids: true).lines(width: 80).map(\.plain)
        for line in compact { #expect(displayWidth(line) <= 80, "\(line)") }
        #expect(!compact[0].contains("Length"), "the length goes first: \(compact[0])")
        #expect(compact[1].contains("…") && compact[1].contains("3 days ago"), "\(compact[1])")
        // The podcast column starts at the same column on every row, wide characters or not.
        let column = displayWidth(compact[0].prefix(upTo: try #require(compact[0].range(of: "Podcast")).lowerBound))
        #expect(compact.map { Self.text($0, at: column).prefix(3) } == ["Pod", "The", "東京ラ"], "\(compact.joined(separator: "\n"))")
        #expect(episodes[1].line(width: 80).plain == "短い — 東京ラジオ  1:02:03  · 3 days ago  [new]  ↓")
        #expect(episodes[0].line(width: 80).width <= 80)
    }

    static func download(_ episode: String, _ state: DownloadState, received: UInt64, rate: Double?) -> DownloadProgressViewData {
        DownloadProgressViewData(job: DownloadJob(id: 3, episodeID: episode, podcastID: "p", url: "https://x/e.mp3", folder: "/d", name: "E",
                                                  owner: "", state: state, received: received, total: 48_000_000), bytesPerSecond: rate)
    }

    @Test func downloadBarsLineUp() {
        let running = Self.download("ep-1", .downloading, received: 21_600_000, rate: 1_200_000)
        let queued = Self.download("episode-22", .queued, received: 0, rate: nil)
        let wide = running.barLine(episodeWidth: 10, width: 120).plain
        #expect(wide == "ep-1        [===========>                ]   45%    21.6 MB of 48.0 MB    1.2 MB/s     0:22 left")
        let compact = running.barLine(episodeWidth: 10, width: 80).plain
        #expect(compact == "ep-1        [====>       ]   45%    21.6 MB of 48.0 MB    1.2 MB/s     0:22 left")
        #expect(queued.barLine(episodeWidth: 10, width: 80).plain == "episode-22  queued")
        // The bar starts at the same column for every job.
        #expect(compact.firstIndex(of: "[").map { compact.distance(from: compact.startIndex, to: $0) } == 12)
        let narrow = running.barLine(episodeWidth: 10, width: 50).plain
        #expect(displayWidth(narrow) <= 50 && narrow.contains("45%") && narrow.contains("["), "\(narrow)")
        for width in 20...130 { #expect(running.barLine(episodeWidth: 10, width: width).width <= width) }
        #expect(running.line(width: 80).plain == "3  downloading  45%  21.6 MB of 48.0 MB  1.2 MB/s  0:22 left  ep-1")
    }
}
