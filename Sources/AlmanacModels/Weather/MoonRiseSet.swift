public import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// When the moon rises and sets on one day at a place, computed (no service): the moon's
/// position from the Astronomical Almanac's low-precision series (about 0.3° in longitude,
/// 0.2° in latitude), its altitude through the day in ten-minute steps, each crossing of the
/// horizon refined to seconds. The horizon is where the upper limb shows through standard
/// refraction, h₀ = 0.7275 π − 0.5667° (π the moon's parallax: about +0.125°), as in Meeus's
/// "Astronomical Algorithms", ch. 15. Times come within a few minutes of published tables.
public struct MoonRiseSet: Sendable, Hashable {
    /// When the moon rises that day; `nil` when it does not (it rises about 50 minutes later
    /// each day, so about once a month it skips a day, and near the poles it may stay up or down).
    public let rise: Date?
    /// When the moon sets that day; `nil` when it does not.
    public let set: Date?

    /// The rise and set between `start` and 24 hours after it (a day's midnight on the place's
    /// clock) at `latitude`, `longitude` (degrees, east positive).
    public init(dayStartingAt start: Date, latitude: Double, longitude: Double) {
        self.init(from: start, to: start.addingTimeInterval(86_400), latitude: latitude, longitude: longitude)
    }

    /// The rise and set from `start` until `end` (at most two days).
    init(from start: Date, to end: Date, latitude: Double, longitude: Double) {
        let step: Double = 600
        var rise: Date?
        var set: Date?
        var before = Self.aboveHorizon(start, latitude: latitude, longitude: longitude)
        var time = start
        let length = min(max(end.timeIntervalSince(start), 0), 2 * 86_400)
        for _ in 0..<Int((length / step).rounded(.up)) {
            let next = min(time.addingTimeInterval(step), start.addingTimeInterval(length))
            let after = Self.aboveHorizon(next, latitude: latitude, longitude: longitude)
            if before.sign != after.sign {
                let crossing = Self.refine(time, next, latitude: latitude, longitude: longitude)
                if after > 0 { rise = rise ?? crossing } else { set = set ?? crossing }
            }
            (time, before) = (next, after)
        }
        self.rise = rise
        self.set = set
    }

    /// The rise and set on `day` ("2026-11-22") at a place `utcOffset` seconds from UTC;
    /// `nil` when `day` is not a date or the coordinates are not on Earth.
    public init?(day: String, latitude: Double, longitude: Double, utcOffset: Int) {
        self.init(day: day, latitude: latitude, longitude: longitude, offsets: { _ in utcOffset })
    }

    /// The rise and set on `day` at a place whose offset from UTC at a moment is `offsets`'
    /// (its time zone: `WeatherReading.utcOffset(at:)`): the day runs from its midnight to the
    /// next on the place's clock, 23 or 25 hours on the day daylight saving begins or ends.
    public init?(day: String, latitude: Double, longitude: Double, offsets: (Date) -> Int) {
        guard let days = CalendarDay.daysSinceEpoch(of: day), (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        self.init(from: Self.midnight(days, offsets), to: Self.midnight(days + 1, offsets), latitude: latitude, longitude: longitude)
    }

    /// The midnight that begins day number `days` on the place's clock.
    static func midnight(_ days: Int, _ offsets: (Date) -> Int) -> Date {
        let utc = Double(days) * 86_400
        let guess = utc - Double(offsets(Date(timeIntervalSince1970: utc)))
        return Date(timeIntervalSince1970: utc - Double(offsets(Date(timeIntervalSince1970: guess))))
    }

    /// The moment the altitude crosses the horizon between `low` and `high`, by bisection to a second.
    private static func refine(_ low: Date, _ high: Date, latitude: Double, longitude: Double) -> Date {
        var (low, high) = (low, high)
        let rising = aboveHorizon(low, latitude: latitude, longitude: longitude) < 0
        while high.timeIntervalSince(low) > 1 {
            let middle = low.addingTimeInterval(high.timeIntervalSince(low) / 2)
            if (aboveHorizon(middle, latitude: latitude, longitude: longitude) < 0) == rising { low = middle } else { high = middle }
        }
        return low.addingTimeInterval(high.timeIntervalSince(low) / 2)
    }

    /// How far (degrees) the moon's centre is above the altitude at which its upper limb
    /// appears: positive while it is up.
    static func aboveHorizon(_ date: Date, latitude: Double, longitude: Double) -> Double {
        let moon = position(date)
        let siderealTime = 280.46061837 + 360.98564736629 * moon.days + longitude
        let hourAngle = radians(siderealTime) - moon.rightAscension
        let phi = radians(latitude)
        let altitude = asin(sin(phi) * sin(moon.declination) + cos(phi) * cos(moon.declination) * cos(hourAngle))
        return degrees(altitude) - (0.7275 * moon.parallax - 0.5667)
    }

    /// The moon's geocentric right ascension and declination (radians) and horizontal parallax
    /// (degrees) at `date`, and the days since J2000.0.
    static func position(_ date: Date) -> (rightAscension: Double, declination: Double, parallax: Double, days: Double) {
        let d = date.timeIntervalSince1970 / 86_400 + 2_440_587.5 - 2_451_545.0
        let t = d / 36_525
        func s(_ a: Double, _ b: Double) -> Double { sin(radians(a + b * t)) }
        func c(_ a: Double, _ b: Double) -> Double { cos(radians(a + b * t)) }
        let longitude = 218.32 + 481_267.881 * t + 6.29 * s(135.0, 477_198.87) - 1.27 * s(259.3, -413_335.36)
            + 0.66 * s(235.7, 890_534.22) + 0.21 * s(269.9, 954_397.74) - 0.19 * s(357.5, 35_999.05) - 0.11 * s(186.5, 966_404.03)
        let latitude = 5.13 * s(93.3, 483_202.02) + 0.28 * s(228.2, 960_400.89) - 0.28 * s(318.3, 6_003.15) - 0.17 * s(217.6, -407_332.21)
        let parallax = 0.9508 + 0.0518 * c(135.0, 477_198.87) + 0.0095 * c(259.3, -413_335.36)
            + 0.0078 * c(235.7, 890_534.22) + 0.0028 * c(269.9, 954_397.74)
        let (lambda, beta, epsilon) = (radians(longitude), radians(latitude), radians(23.439_291 - 0.013_004_2 * t))
        let rightAscension = atan2(sin(lambda) * cos(epsilon) - tan(beta) * sin(epsilon), cos(lambda))
        let declination = asin(sin(beta) * cos(epsilon) + cos(beta) * sin(epsilon) * sin(lambda))
        return (rightAscension, declination, parallax, d)
    }

    private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    private static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}
