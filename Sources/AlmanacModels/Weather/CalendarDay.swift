public import FoundationEssentials

/// Calendar days as `YYYY-MM-DD`, by arithmetic on the proleptic Gregorian calendar (no ICU,
/// no time-zone database: a place's day is found from its UTC offset).
public enum CalendarDay {
    /// The day at `date` in a place `utcOffset` seconds from UTC ("2026-11-22").
    public static func at(_ date: Date, utcOffset: Int) -> String {
        let seconds = date.timeIntervalSince1970 + Double(utcOffset)
        guard seconds.isFinite, abs(seconds) < 1e14 else { return "0000-01-01" }
        return string(daysSinceEpoch: Int((seconds / 86_400).rounded(.down)))
    }

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (Howard Hinnant's
    /// days-from-civil); the inverse of `string(daysSinceEpoch:)`'s arithmetic.
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `YYYY-MM-DD` for day number `day` since 1970-01-01 (Howard Hinnant's civil-from-days).
    public static func string(daysSinceEpoch day: Int) -> String {
        let (y, m, d) = civil(daysSinceEpoch: day)
        func pad(_ n: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }

    /// Year, month and day of day number `day` since 1970-01-01 (Howard Hinnant's civil-from-days).
    static func civil(daysSinceEpoch day: Int) -> (year: Int, month: Int, day: Int) {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// Days from 1970-01-01 to `day` ("2026-03-29"); `nil` when it is not such a date.
    public static func daysSinceEpoch(of day: String) -> Int? {
        let parts = day.split(separator: "-", omittingEmptySubsequences: false).compactMap { Int($0) }
        guard day.utf8.count == 10, parts.count == 3, (1...9999).contains(parts[0]), (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return nil }
        return daysSinceEpoch(year: parts[0], month: parts[1], day: parts[2])
    }

    /// Whether `year` has a 29 February.
    public static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The year of day number `day` since 1970-01-01.
    static func year(ofDay day: Int) -> Int {
        civil(daysSinceEpoch: day).year
    }
}
