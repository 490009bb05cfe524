@testable import AlmanacServices
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing
import AlmanacCore
import AlmanacModels

/// Against a real local HTTP server that answers like Open-Meteo.
@Suite(.onTestThreads, .timeLimit(.hang)) struct OpenMeteoWeatherServiceTests {
    /// The start of the `seconds`-long step (quarter hour, hour, UTC day) that holds `date`.
    static func start(of date: Date, every seconds: Double) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / seconds).rounded(.down) * seconds)
    }

    /// The names of `count` days at UTC+1, the first beginning at `midnight`.
    static func days(from midnight: Date, count: Int) -> [String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 3_600)
        formatter.dateFormat = "yyyy-MM-dd"
        return (0..<count).map { formatter.string(from: midnight.addingTimeInterval(Double($0) * 86_400)) }
    }

    func service(_ server: FixtureServer) -> (OpenMeteoWeatherService, RecordingDelegate) {
        let service = OpenMeteoWeatherService(weatherURL: server.baseURL, geocodingURL: server.baseURL, http: HTTPClient(timeout: 10))
        let delegate = RecordingDelegate()
        service.delegate = delegate
        return (service, delegate)
    }

    @Test func geocodesAPlaceAndReadsItsCurrentWeather() async throws {
        let server = try FixtureServer.openMeteo()
        let (service, delegate) = service(server)
        let before = Date()
        await service.refresh(["Berlin"])
        let after = Date()
        let reading = try #require(delegate.readings.withLock { $0.first })
        #expect(reading.location == "Berlin")
        #expect(reading.placeName == "Berlin, Land Berlin, Germany")
        #expect(reading.latitude == 52.52437 && reading.longitude == 13.41053)
        #expect(reading.temperature == 5.3 && reading.apparentTemperature == -0.4)
        #expect(reading.humidity == 85 && reading.windSpeed == 11.2 && reading.windDirection == 250)
        #expect(reading.weatherCode == 3 && !reading.isDay && reading.precipitation == 0.3)
        // The fixture's current quarter hour, given at UTC+1, read as the instant it is.
        #expect([before, after].map { Self.start(of: $0, every: 900) }.contains(reading.observedAt), "\(reading.observedAt)")
    }

    /// The geocoder's names are the outside's: read without control characters (an
    /// `ESC ]0;` would retitle the terminal that prints the place), as feed text is.
    @Test func aPlaceNameFromTheGeocoderLosesItsControlCharacters() async throws {
        let server = try FixtureServer.openMeteo()
        let (service, delegate) = service(server)
        await service.refresh(["Escapetown"])
        let reading = try #require(delegate.readings.withLock { $0.first })
        #expect(reading.placeName == "Escape]0;xtown, Re2Jgion, Country", "\(reading.placeName.debugDescription)")
        let match = try #require(try await service.searchPlaces("Escapetown", count: 5).first)
        #expect(match.name == "Escape]0;xtown" && match.region == "Re2Jgion" && match.country == "Country" && match.countryCode == "XY")
        let byID = try #require(try await service.geocoded(id: 666))
        #expect(byID.name == "Escape]0;xtown" && byID.admin2 == "District" && byID.timezone == "Etc/UTC")
    }

    @Test func coordinatesSkipGeocoding() async throws {
        let server = try FixtureServer.openMeteo()
        let (service, delegate) = service(server)
        await service.refresh(["48.85, 2.35"])
        let reading = try #require(delegate.readings.withLock { $0.first })
        #expect(reading.latitude == 48.85 && reading.temperature == 4.9)
        await service.refresh(["95,0"])
        #expect(delegate.weatherFailures.withLock { $0["95,0"] }?.contains("not a place on Earth") == true)
    }

    @Test func failuresAreReportedWithReasonsAPersonCanActOn() async throws {
        let server = try FixtureServer.openMeteo()
        let (service, delegate) = service(server)
        await service.refresh(["Atlantis", "Broken", "66.6,0"])
        let failures = delegate.weatherFailures.withLock { $0 }
        #expect(failures["Atlantis"] == "No place called 'Atlantis' was found. Check the spelling, or give coordinates such as 52.52,13.41.")
        #expect(failures["Broken"] == "127.0.0.1 answered HTTP 500.")
        #expect(failures["66.6,0"] == "The weather service sent an answer that is not the forecast JSON it should be.")
        #expect(delegate.readings.withLock { $0.isEmpty })
    }

    @Test func anUnreachableServerIsAFailureNotACrash() async throws {
        let service = OpenMeteoWeatherService(weatherURL: URL(string: "http://127.0.0.1:9")!, geocodingURL: URL(string: "http://127.0.0.1:9")!,
                                              http: HTTPClient(timeout: 5))
        let delegate = RecordingDelegate()
        service.delegate = delegate
        await service.refresh(["Berlin"])
        let failure = delegate.weatherFailures.withLock { $0["Berlin"] } ?? ""
        #expect(failure == "Could not reach 127.0.0.1: nothing answers there (the connection was refused).", "\(failure)")
    }

    @Test func readsTheNext24HoursAnd16Days() async throws {
        let server = try FixtureServer.openMeteo()
        let (service, delegate) = service(server)
        let before = Date()
        await service.refresh(["Berlin"])
        let after = Date()
        let reading = try #require(delegate.readings.withLock { $0.first })
        #expect(reading.utcOffset == 3600)
        #expect(reading.hourly.count == 24)
        // The fixture's current hour, given at UTC+1, read as the instant it is; the last
        // hour's missing precipitation counts as none.
        let hour = try #require(reading.hourly.first?.time)
        #expect([before, after].map { Self.start(of: $0, every: 3_600) }.contains(hour), "\(hour)")
        #expect(reading.hourly.first?.temperature == 5.3 && reading.hourly.first?.precipitationProbability == 0)
        #expect(reading.hourly.last?.weatherCode == 61 && reading.hourly.last?.precipitation == 0)
        // Sixteen days from yesterday on the place's clock (UTC+1).
        let yesterdays = [before, after].map { Self.start(of: $0.addingTimeInterval(3_600), every: 86_400).addingTimeInterval(-86_400 - 3_600) }
        let firstDay = try #require(yesterdays.first { Self.days(from: $0, count: 16) == reading.daily.map(\.day) }, "\(reading.daily.map(\.day))")
        let first = try #require(reading.daily.first)
        #expect(first.temperatureMax == 8.1 && first.temperatureMin == 1.2 && first.weatherCode == 3)
        #expect(first.precipitation == 0.3 && first.precipitationProbability == 20 && first.windSpeedMax == 15)
        // 07:45 at UTC+1 on that day.
        #expect(first.sunrise == firstDay.addingTimeInterval(7 * 3_600 + 45 * 60))
        // The numbers people check, now, for each hour and each day.
        let details = WeatherDetails(uvIndex: 2.35, pressure: 1021.4, visibility: 24_140, cloudCover: 88, windGusts: 31.7, dewPoint: -1.6)
        #expect(reading.details == details)
        #expect(reading.hourly.allSatisfy { $0.details == details })
        #expect(first.uvIndexMax == 1.85 && first.sunshineDuration == 11_684.53 && first.precipitationHours == 3)
    }

    @Test func airQualityComesHourlyAndALastGoodOneStands() async throws {
        let server = try FixtureServer.openMeteo()
        let service = OpenMeteoWeatherService(weatherURL: server.baseURL, geocodingURL: server.baseURL, airQualityURL: server.baseURL,
                                              http: HTTPClient(timeout: 10))
        let delegate = RecordingDelegate()
        service.delegate = delegate
        let before = Date()
        await service.refresh(["Berlin"])
        let after = Date()
        let air = try #require(delegate.readings.withLock { $0.last }?.airQuality)
        #expect(air.europeanAQI == 21 && air.usAQI == 42 && air.pm2_5 == 5.3 && air.pm10 == 8.1 && air.ozone == 61)
        // The fixture's current hour, given at UTC+1, read as the instant it is.
        #expect([before, after].map { Self.start(of: $0, every: 3_600) }.contains(air.observedAt), "\(String(describing: air.observedAt))")
        // Within the hour the air is not asked again, though the weather is; a failing air
        // service leaves the last air, and a place with no values gets them as unknown.
        _ = try await HTTPClient(timeout: 10).get(server.baseURL.appendingPathComponent("control").appending(queryItems: [URLQueryItem(name: "airfail", value: "5")]))
        await service.refresh(["Berlin"])
        #expect(delegate.readings.withLock { $0.last }?.airQuality == air)
        await service.refresh(["33.3,10"])
        let data = try await HTTPClient(timeout: 10).get(server.baseURL.appendingPathComponent("requests")).body
        let paths = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]]).compactMap { $0["path"] as? String }
        #expect(paths.filter { $0.hasPrefix("/v1/air-quality") }.count == 2)
        #expect(paths.filter { $0.hasPrefix("/v1/forecast") }.count == 3)
        #expect(paths.first { $0.hasPrefix("/v1/air-quality") }?.contains("current=european_aqi,us_aqi,pm2_5,pm10,ozone") == true)
        // 33.3 was asked while the service failed: no air for it, the weather still came.
        #expect(delegate.readings.withLock { $0.last }?.location == "33.3,10" && delegate.readings.withLock { $0.last }?.airQuality == nil)
    }

    @Test func pollenComesWithTheAirWhereTheModelHasIt() async throws {
        let server = try FixtureServer.openMeteo()
        let service = OpenMeteoWeatherService(weatherURL: server.baseURL, geocodingURL: server.baseURL, airQualityURL: server.baseURL,
                                              http: HTTPClient(timeout: 10))
        let delegate = RecordingDelegate()
        service.delegate = delegate
        await service.refresh(["Berlin"])
        let pollen = try #require(delegate.readings.withLock { $0.last }?.airQuality?.pollen)
        #expect(pollen == Pollen(alder: 3, birch: 85, grass: 25, mugwort: 0, olive: 0, ragweed: 0))
        // Outside Europe the model answers null for every plant: the air comes, without pollen.
        await service.refresh(["33.3,10"])
        let elsewhere = try #require(delegate.readings.withLock { $0.last })
        #expect(elsewhere.location == "33.3,10" && elsewhere.airQuality != nil && elsewhere.airQuality?.pollen == nil)
        let data = try await HTTPClient(timeout: 10).get(server.baseURL.appendingPathComponent("requests")).body
        let paths = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]]).compactMap { $0["path"] as? String }
        #expect(paths.first { $0.hasPrefix("/v1/air-quality") }?.contains("birch_pollen") == true)
    }

    @Test func asksForSixteenDaysOfHours() async throws {
        let server = try FixtureServer.openMeteo()
        _ = try await HTTPClient(timeout: 10).get(server.baseURL.appendingPathComponent("control").appending(queryItems: [URLQueryItem(name: "hours", value: "now")]))
        let (service, delegate) = service(server)
        await service.refresh(["Berlin"])
        let reading = try #require(delegate.readings.withLock { $0.first })
        #expect(reading.hourly.count == WeatherReading.maximumHours)
        #expect(zip(reading.hourly, reading.hourly.dropFirst()).allSatisfy { $1.time.timeIntervalSince($0.time) == 3600 })
        let data = try await HTTPClient(timeout: 10).get(server.baseURL.appendingPathComponent("requests")).body
        let paths = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]]).compactMap { $0["path"] as? String }
        #expect(paths.first { $0.hasPrefix("/v1/forecast") }?.contains("forecast_hours=384") == true)
    }

    @Test func asksForGzipAndRevalidatesWithTheETag() async throws {
        let server = try FixtureServer.openMeteo()
        let (service, delegate) = service(server)
        await service.refresh(["52.5,13.4"])
        await service.refresh(["52.5,13.4"])
        let readings = delegate.readings.withLock { $0 }
        #expect(readings.count == 2 && readings[1].temperature == readings[0].temperature && readings[1].daily == readings[0].daily)
        let data = try await HTTPClient(timeout: 10).get(server.baseURL.appendingPathComponent("requests")).body
        let requests = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let forecasts = requests.filter { ($0["path"] as? String)?.hasPrefix("/v1/forecast") == true }
        #expect(forecasts.map { $0["status"] as? Int } == [200, 304])
        let headers = forecasts.map { ($0["headers"] as? [String: String] ?? [:]).reduce(into: [String: String]()) { $0[$1.key.lowercased()] = $1.value } }
        #expect(headers[0]["accept-encoding"]?.contains("gzip") == true)
        #expect(headers[0]["user-agent"]?.hasPrefix("almanacd/") == true)
        #expect(headers[1]["if-none-match"]?.isEmpty == false)
    }

    @Test func aStalledServerTimesOutAndHoldsUpOnlyItsOwnPlace() async throws {
        let server = try FixtureServer.openMeteo()
        let service = OpenMeteoWeatherService(weatherURL: server.baseURL, geocodingURL: server.baseURL, http: HTTPClient(timeout: 5))
        let delegate = RecordingDelegate()
        service.delegate = delegate
        // 77.7 stalls for 30 s; the other places are fetched meanwhile, and the stall ends as a timeout.
        await service.refresh(["77.7,0", "10,10", "20,20"])
        #expect(delegate.readings.withLock { $0.map(\.location).sorted() } == ["10,10", "20,20"])
        let failure = try #require(delegate.weatherFailures.withLock { $0["77.7,0"] })
        #expect(failure.hasPrefix("127.0.0.1 sent nothing for 5 s, so Almanac gave up waiting"), "\(failure)")
    }
}
