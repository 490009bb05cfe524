public import FoundationEssentials
import AlmanacCore

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

