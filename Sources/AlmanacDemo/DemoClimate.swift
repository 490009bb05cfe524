import AlmanacModels
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One place's simulated weather for one seed, as a function of the step (the place's
/// refresh count) and the clock. The rules that keep it believable:
///
/// - today's low and high are fixed for the seed; the current temperature drifts between
///   them (0.6 °C inside) along a smooth wave that moves at most 0.4 °C a step (0.5 once
///   rounded to tenths);
/// - the hours ahead follow the same wave (three steps an hour), so the first hour *is*
///   the current temperature and the next ones go on from it;
/// - a wetness wave (0 dry … 1 pouring, at most 0.02 a step, half a step an hour) gives the
///   chance of precipitation, the amount (only above 0.6, so only with a chance of 50% or
///   more), humidity and the condition; the condition follows from temperature, amount and
///   wetness alone (`condition(…)`): snow only at 1 °C or less (a day: a high of 1 °C or
///   less), rain and snow codes only with precipitation, a clear sky only with a chance of
///   15% or less;
/// - a day's range covers every hour shown of it, and its chance and amount cover its hours.
struct DemoClimate: Sendable {
    let place: DemoPlaces.Place
    private let random: DemoRandom
    private let salt: UInt64
    /// Today's middle temperature and its spread from low to high.
    private let middle: Double
    private let spread: Double
    private let temperatureWave: DemoWave
    private let wetnessWave: DemoWave
    private let windWave: DemoWave
    private let windBase: Double
    private let directionBase: Double
    /// Rain comes as showers here (80, 81) rather than steady rain (61, 63).
    private let showery: Bool

    /// Steps an hour along the waves, for the hours ahead.
    static let temperatureStepsPerHour = 3.0
    static let wetnessStepsPerHour = 0.5
    /// The most the current temperature moves in a step, before rounding.
    static let steepestTemperature = 0.4
    static let steepestWetness = 0.02
    private static let wetnessStretch = 1.3

    init(_ place: DemoPlaces.Place, seed: UInt64) {
        self.place = place
        random = DemoRandom(seed: seed)
        salt = DemoRandom.salt(place.name.lowercased())
        middle = place.base + random.value(in: -3...3, salt, 1)
        spread = random.value(in: 6...11, salt, 2)
        let amplitude = spread / 2 - 0.6
        temperatureWave = DemoWave(random, salt &+ 10, steepest: Self.steepestTemperature / amplitude)
        wetnessWave = DemoWave(random, salt &+ 20, steepest: Self.steepestWetness / (0.5 * Self.wetnessStretch))
        windWave = DemoWave(random, salt &+ 30, steepest: 0.03)
        windBase = random.value(in: 6...22, salt, 3)
        directionBase = random.value(in: 0...360, salt, 4)
        showery = random.unit(salt, 5) < 0.4
    }

    /// Today's low and high.
    var today: (low: Double, high: Double) { (Self.tenths(middle - spread / 2), Self.tenths(middle + spread / 2)) }

    /// The temperature at `step`, unrounded: strictly inside today's range.
    func temperature(_ step: Double) -> Double { middle + (spread / 2 - 0.6) * temperatureWave(step) }

    /// How wet it is at `step`, 0…1.
    func wetness(_ step: Double) -> Double {
        // Stretched (and clipped) a little: a sum of sines lingers near its middle.
        min(1, max(0, 0.5 + 0.5 * Self.wetnessStretch * wetnessWave(step)))
    }

    /// Chance of precipitation, in 5% steps, for a wetness.
    static func chance(_ wetness: Double) -> Double { min(100, max(0, ((wetness - 0.2) * 125 / 5).rounded() * 5)) }

    /// Precipitation in an hour, mm: none below 0.6, at least 0.1 above.
    static func amount(_ wetness: Double) -> Double { wetness < 0.6 ? 0 : max(0.1, tenths((wetness - 0.6) * 6)) }

    /// The WMO code for a temperature (a day: its high), an amount (falling over `hours`)
    /// and a wetness.
    static func condition(temperature: Double, precipitation: Double, hours: Double = 1, wetness: Double, showery: Bool) -> Int {
        if precipitation > 0 {
            let rate = precipitation / hours
            if temperature <= 1 { return rate < 0.5 ? 71 : rate < 1.5 ? 73 : 75 }
            if wetness > 0.95, temperature >= 16 { return 95 }
            if showery { return rate < 1 ? 80 : 81 }
            return rate < 0.3 ? 51 : rate < 1 ? 61 : rate < 2 ? 63 : 65
        }
        if wetness < 0.3 { return 0 }
        if wetness < 0.4 { return 1 }
        if wetness < 0.5 { return 2 }
        return temperature < 5 && wetness > 0.55 ? 45 : 3
    }

    /// The hours a reading gives from the current one: five days, enough for
    /// `forecast --graph --hours 96` offline; all 16 days would make the demo's invariant
    /// tests (7,200 readings) sixteen times slower than 24 hours did, for nothing to see.
    static let hoursAhead = 120

    /// The reading at `step`, observed at `now`.
    func reading(location: String, step: Int, now: Date) -> WeatherReading {
        let s = Double(step)
        let temperature = Self.tenths(self.temperature(s))
        let wetness = self.wetness(s)
        let precipitation = Self.amount(wetness)
        let wind = windSpeed(s)
        let humidity = (40 + 55 * wetness).rounded()
        let hourStart = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
        let dayNumber = Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
        let hourCount = Self.hoursAhead
        let hourly = (0..<hourCount).map { hour(s, hourStart: hourStart, ahead: $0) }
        let hourWetness = (0..<hourCount).map { self.wetness(s + Double($0) * Self.wetnessStepsPerHour) }
        // Each day's hours, found once (sixteen days of them).
        let byDay = Dictionary(grouping: zip(hourly, hourWetness)) { Int(($0.0.time.timeIntervalSince1970 / 86_400).rounded(.down)) }
        let daily = (0..<16).map { day(dayNumber: dayNumber, ahead: $0, hourly: byDay[dayNumber + $0] ?? []) }
        return WeatherReading(
            location: location, placeName: place.name, latitude: place.latitude, longitude: place.longitude,
            temperature: temperature, apparentTemperature: Self.feelsLike(temperature, wind: wind, humidity: humidity),
            humidity: humidity, windSpeed: wind, windDirection: windDirection(s),
            precipitation: precipitation,
            weatherCode: Self.condition(temperature: temperature, precipitation: precipitation, wetness: wetness, showery: showery),
            isDay: Self.isDay(now), observedAt: now, fetchedAt: now, utcOffset: 0, hourly: hourly, daily: daily,
            details: Self.details(temperature: temperature, humidity: humidity, wetness: wetness, wind: wind, isDay: Self.isDay(now)),
            airQuality: AirQuality(europeanAQI: (random.value(in: 8...45, salt, 500) + 20 * wetness).rounded(),
                                   usAQI: (random.value(in: 15...70, salt, 501) + 20 * wetness).rounded(),
                                   pm2_5: Self.tenths(random.value(in: 2...18, salt, 502)), pm10: Self.tenths(random.value(in: 5...30, salt, 503)),
                                   ozone: Self.tenths(random.value(in: 30...90, salt, 504)), observedAt: hourStart, fetchedAt: now,
                                   pollen: pollen(now: now)),
            provider: "demo"
        )
    }

    /// Each plant's season: the day of the year it peaks, how many days either side it lasts,
    /// and its count at the peak, grains/m³ (olive's in the south only).
    static let pollenSeasons: [(plant: String, peak: Double, halfLength: Double, grains: Double)] = [
        ("alder", 46, 90, 80), ("birch", 110, 35, 400), ("grass", 165, 60, 90),
        ("mugwort", 220, 30, 25), ("olive", 140, 30, 150), ("ragweed", 245, 30, 45),
    ]

    /// Pollen as Open-Meteo's model gives it: in Europe only (elsewhere `nil`), each plant in
    /// its season, none outside it.
    func pollen(now: Date) -> Pollen? {
        guard (34...72).contains(place.latitude), (-25...45).contains(place.longitude) else { return nil }
        let dayOfYear = (now.timeIntervalSince1970 / 86_400).truncatingRemainder(dividingBy: 365.2425)
        var counts: [String: Double] = [:]
        for (index, season) in Self.pollenSeasons.enumerated() {
            let distance = abs((dayOfYear - season.peak + 365.25 / 2).truncatingRemainder(dividingBy: 365.25) - 365.25 / 2)
            let inSeason = distance < season.halfLength ? pow(cos(Double.pi / 2 * distance / season.halfLength), 2) : 0
            let south = season.plant == "olive" ? (place.latitude < 45 ? 1.0 : 0) : 1
            counts[season.plant] = Self.tenths(season.grains * inSeason * south * random.value(in: 0.6...1.3, salt, 600 + UInt64(index)))
        }
        return Pollen(alder: counts["alder"], birch: counts["birch"], grass: counts["grass"], mugwort: counts["mugwort"],
                      olive: counts["olive"], ragweed: counts["ragweed"])
    }

    /// UV, pressure, visibility, clouds, gusts and dew point that go with the rest: clouds
    /// and rain lower the UV, the pressure and the visibility; humid air has a dew point near
    /// the temperature.
    static func details(temperature: Double, humidity: Double, wetness: Double, wind: Double, isDay: Bool) -> WeatherDetails {
        WeatherDetails(
            uvIndex: isDay ? tenths(max(0, 6 * (1 - wetness))) : 0, pressure: tenths(1013 + 24 * (0.5 - wetness)),
            visibility: ((wetness > 0.9 ? 3_000 : 10_000 + 30_000 * (1 - wetness)) / 100).rounded() * 100,
            cloudCover: (min(1, wetness * 1.2) * 100).rounded(), windGusts: tenths(wind * 1.6),
            dewPoint: tenths(temperature - (100 - humidity) / 5)
        )
    }

    private func hour(_ step: Double, hourStart: Date, ahead: Int) -> HourlyForecast {
        let temperature = Self.tenths(self.temperature(step + Double(ahead) * Self.temperatureStepsPerHour))
        let wetness = self.wetness(step + Double(ahead) * Self.wetnessStepsPerHour)
        let precipitation = Self.amount(wetness)
        let time = hourStart.addingTimeInterval(Double(ahead) * 3600)
        return HourlyForecast(
            time: time, temperature: temperature, precipitationProbability: Self.chance(wetness), precipitation: precipitation,
            weatherCode: Self.condition(temperature: temperature, precipitation: precipitation, wetness: wetness, showery: showery),
            windSpeed: windSpeed(step + Double(ahead) * Self.temperatureStepsPerHour), isDay: Self.isDay(time),
            details: Self.details(temperature: temperature, humidity: (40 + 55 * wetness).rounded(), wetness: wetness,
                                  wind: windSpeed(step + Double(ahead) * Self.temperatureStepsPerHour), isDay: Self.isDay(time))
        )
    }

    /// Day `ahead` from today, given its hours and their wetness.
    private func day(dayNumber: Int, ahead: Int, hourly ofTheDay: [(HourlyForecast, Double)]) -> DailyForecast {
        let hours = ofTheDay.map(\.0)
        var (low, high) = today
        var wetness = 0.0
        var precipitation = 0.0
        if ahead > 0 {
            // A day of its own, near today's weather.
            let middle = middle + random.value(in: -3...3, salt, 100 + UInt64(ahead))
            let spread = random.value(in: 6...11, salt, 200 + UInt64(ahead))
            (low, high) = (Self.tenths(middle - spread / 2), Self.tenths(middle + spread / 2))
            wetness = random.unit(salt, 300 + UInt64(ahead))
            precipitation = wetness < 0.6 ? 0 : max(0.1, Self.tenths((wetness - 0.6) * 25))
        }
        // The hours shown of the day lie inside its range and count in its chance and amount.
        low = min(low, hours.map(\.temperature).min() ?? low)
        high = max(high, hours.map(\.temperature).max() ?? high)
        wetness = max(wetness, ofTheDay.map(\.1).max() ?? 0)
        precipitation = max(precipitation, Self.tenths(hours.map(\.precipitation).reduce(0, +)))
        let start = Double((dayNumber + ahead) * 86_400)
        return DailyForecast(
            day: CalendarDay.string(daysSinceEpoch: dayNumber + ahead),
            weatherCode: Self.condition(temperature: high, precipitation: precipitation, hours: 6, wetness: wetness, showery: showery),
            temperatureMax: high, temperatureMin: low, precipitation: precipitation,
            precipitationProbability: max(Self.chance(wetness), hours.map(\.precipitationProbability).max() ?? 0),
            windSpeedMax: Self.tenths(max(windBase * random.value(in: 1.1...1.8, salt, 400 + UInt64(ahead)), hours.map(\.windSpeed).max() ?? 0)),
            sunrise: Date(timeIntervalSince1970: start + 7 * 3600), sunset: Date(timeIntervalSince1970: start + 17 * 3600),
            uvIndexMax: Self.tenths(max(0.5, 6 * (1 - wetness))), sunshineDuration: ((1 - wetness) * 10 * 3600 / 60).rounded() * 60,
            precipitationHours: precipitation > 0 ? max(1, (wetness * 12).rounded()) : 0
        )
    }

    private func windSpeed(_ step: Double) -> Double { Self.tenths(windBase * (1 + 0.4 * windWave(step))) }

    private func windDirection(_ step: Double) -> Double {
        (directionBase + 360 + 60 * windWave(step + 1000)).rounded().truncatingRemainder(dividingBy: 360)
    }

    /// Wind makes it feel colder; humid heat, warmer.
    static func feelsLike(_ temperature: Double, wind: Double, humidity: Double) -> Double {
        let chill = temperature < 20 ? wind / 12 : 0
        let muggy = temperature > 24 ? max(0, humidity - 40) / 15 : 0
        return tenths(temperature - chill + muggy)
    }

    /// The demo's sun rises at 07:00 and sets at 17:00 (UTC, its places' offset).
    static func isDay(_ date: Date) -> Bool {
        let hour = Int((date.timeIntervalSince1970 / 3600).rounded(.down)) % 24
        return (7..<17).contains(hour)
    }

    static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
