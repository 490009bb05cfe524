public import FoundationEssentials
import AlmanacModels

/// "07:45": the time of day of `date` at a place `utcOffset` seconds from UTC.
public func localClock(_ date: Date, utcOffset: Int) -> String {
    guard let seconds = wholeNumber(date.timeIntervalSince1970 + Double(utcOffset), rounding: .down) else { return "--:--" }
    let ofDay = ((seconds % 86_400) + 86_400) % 86_400
    let (hours, minutes) = (ofDay / 3_600, (ofDay % 3_600) / 60)
    return (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
}

/// "Mon 23": the weekday and day of month of an ISO day (`2026-11-23`); the text itself when
/// it is not one.
public func shortDay(_ isoDay: String) -> String {
    let parts = isoDay.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return isoDay }
    let names = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    let days = CalendarDay.daysSinceEpoch(year: parts[0], month: parts[1], day: parts[2])
    return names[((days % 7) + 7) % 7] + " \(parts[2])"
}


/// "2026-11-23T07:45:00+01:00": `date` in ISO 8601, to the second, at `utcOffset` seconds
/// from UTC ("Z" at 0), for `--json`.
public func isoTimestamp(_ date: Date, utcOffset: Int) -> String {
    guard let seconds = wholeNumber(date.timeIntervalSince1970 + Double(utcOffset), rounding: .down) else { return "" }
    let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
    let ofDay = seconds - days * 86_400
    let two = { (n: Int) in (n < 10 ? "0" : "") + "\(n)" }
    let time = two(ofDay / 3_600) + ":" + two((ofDay % 3_600) / 60) + ":" + two(ofDay % 60)
    let zone: String
    if utcOffset == 0 {
        zone = "Z"
    } else {
        let minutes = abs(utcOffset) / 60
        zone = (utcOffset < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
    }
    return CalendarDay.string(daysSinceEpoch: days) + "T" + time + zone
}

/// Whole seconds since 1970 (rounded down), for `--json`'s `…Unix` keys.
public func unixSeconds(_ date: Date) -> Int64 {
    Int64(wholeNumber(date.timeIntervalSince1970, rounding: .down) ?? 0)
}
