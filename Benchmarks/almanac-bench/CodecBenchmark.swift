import AlmanacModels
import DBus
import FoundationEssentials
import Glibc

/// The codecs alone, in memory: each document's state and a few changes encoded as the
/// server sends them (model → `Value`s) and decoded as the CLI reads them (`Value`s →
/// model), again and again for `seconds` of this thread's processor time each (the clock,
/// on a loaded machine, counts other processes too). Prints one line per figure:
/// "NAME rate R" (operations a second). The calls themselves are in `CodecCalls`.
struct CodecBenchmark {
    let seconds: Double

    func run() throws {
        let weather = Self.weatherState(), podcasts = Self.podcastsState()
        let reading = WeatherChange.reading(weather.readings["Berlin"]!)
        let units = WeatherChange.units(.imperial)
        let episodes = PodcastsChange.newEpisodes(podcastID: "p0", Array(podcasts.episodes.values.prefix(10)))
        let play = PodcastsChange.playState(episodeID: "p0-1", podcastID: "p0", played: true, position: 61.5)
        let encodedWeather = try CodecCalls.encode(weather), encodedPodcasts = try CodecCalls.encode(podcasts)
        let figures: [(String, () throws -> Int)] = [
            ("encode-weather-state", { try CodecCalls.encode(weather).count }),
            ("decode-weather-state", { try CodecCalls.decodeWeather(encodedWeather).readings.count }),
            ("encode-podcasts-state", { try CodecCalls.encode(podcasts).count }),
            ("decode-podcasts-state", { try CodecCalls.decodePodcasts(encodedPodcasts).episodes.count }),
            ("encode-change-reading", { try CodecCalls.encode(reading).count }),
            ("encode-change-units", { try CodecCalls.encode(units).count }),
            ("encode-change-newEpisodes", { try CodecCalls.encode(episodes).count }),
            ("encode-change-playState", { try CodecCalls.encode(play).count }),
            ("roundtrip-change-reading", { try CodecCalls.decodeChange(try CodecCalls.encode(reading)) == reading ? 1 : 0 }),
            ("roundtrip-change-newEpisodes", { try CodecCalls.decodeChange(try CodecCalls.encode(episodes)) == episodes ? 1 : 0 }),
        ]
        for (name, operation) in figures {
            var count = 0
            var sink = try operation()
            let start = Self.processorTime()
            var elapsed = 0.0
            repeat {
                for _ in 0..<10 { sink &+= try operation() }
                count += 10
                elapsed = Self.processorTime() - start
            } while elapsed < seconds
            print("\(name) rate \(Double(count) / elapsed) sink \(sink % 10)")
        }
    }

    /// This thread's processor time, in seconds.
    static func processorTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static let second = Date(timeIntervalSince1970: 1_800_000_000)

    /// Three places as almanacd keeps them: 384 hours (48 travel), 16 days, details, air, a
    /// nowcast, and alerts.
    static func weatherState() -> WeatherState {
        var state = WeatherState(units: .metric, savedLocations: ["Berlin", "Paris", "東京"])
        for (index, place) in state.savedLocations.enumerated() {
            let hours = (0..<384).map { hour in
                HourlyForecast(time: second + Double(hour) * 3_600, temperature: Double(hour % 30), precipitationProbability: 20, precipitation: 0.1,
                               weatherCode: hour % 4, windSpeed: 12, isDay: hour % 24 > 6, details: WeatherDetails(uvIndex: 1, dewPoint: 4.5))
            }
            let days = (0..<16).map { day in
                DailyForecast(day: "2027-01-\(10 + day)", weatherCode: 61, temperatureMax: 11, temperatureMin: 3, precipitation: 4,
                              precipitationProbability: 80, windSpeedMax: 30, sunrise: second, sunset: second + 30_000, uvIndexMax: 1.5)
            }
            state.readings[place] = WeatherReading(
                location: place, placeName: "\(place), Land", latitude: 52.52, longitude: 13.41 + Double(index), temperature: 9.5,
                apparentTemperature: 7.25, humidity: 81, windSpeed: 14.4, windDirection: 250, precipitation: 0.2, weatherCode: 61, isDay: false,
                observedAt: second, fetchedAt: second + 30, utcOffset: 3_600, hourly: hours, daily: days,
                details: WeatherDetails(uvIndex: 0.5, pressure: 1_013, visibility: 10_000, cloudCover: 90, windGusts: 40, dewPoint: 6),
                airQuality: AirQuality(europeanAQI: 21, pm2_5: 4.5, observedAt: second, fetchedAt: second,
                                       pollen: Pollen(alder: 3, birch: 85.5, grass: 25)),
                provider: "open-meteo", nowcast: Nowcast(steps: (0..<8).map { NowcastStep(start: second + Double($0) * 900, precipitation: 0.5) }),
                timeZone: "Europe/Berlin")
            state.alerts[place] = PlaceAlerts(alerts: [WeatherAlert(id: "urn:\(index)", event: "Wind", severity: .moderate, onset: second,
                                                                    expires: second + 3_600, headline: "Wind warning", source: "metalerts")], fetchedAt: second)
        }
        return state
    }

    /// 20 podcasts, each with its own settings, and 200 episodes (50 travel in the state).
    static func podcastsState() -> PodcastsState {
        var state = PodcastsState()
        for index in 0..<20 {
            let id = "p\(index)"
            state.podcasts[id] = Podcast(id: id, title: "Podcast \(index)", author: "Author", feedURL: "https://example.org/\(id).xml")
            state.preferences[id] = PodcastPreferences(refreshInterval: 3_600, autoDownload: index.isMultiple(of: 2), keep: 5)
            for number in 0..<10 {
                let episode = Episode(id: "\(id)-\(number)", podcastID: id, title: "Episode \(number) of \(index)",
                                      published: second - Double(index * 10 + number) * 3_600, duration: 3_600, isNew: number < 2,
                                      played: number > 5, position: 61.5, audioURL: "https://example.org/\(id)/\(number).mp3")
                state.episodes[episode.id] = episode
            }
        }
        state.episodeCount = state.episodes.count
        state.queue = (0..<5).map { QueuedEpisode(episodeID: "p\($0)-0", podcastID: "p\($0)") }
        return state
    }
}
