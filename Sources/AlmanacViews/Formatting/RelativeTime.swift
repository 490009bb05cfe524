public import FoundationEssentials

/// "just now", "3 minutes ago", "2 hours ago", "5 days ago": how long ago `date` was at `now`.
public func relativeTime(_ date: Date, now: Date) -> String {
    guard let seconds = wholeNumber(now.timeIntervalSince(date)) else { return "at an unknown time" }
    if seconds < 0 { return "in the future" }
    if seconds < 45 { return "just now" }
    func ago(_ count: Int, _ unit: String) -> String { "\(count) \(unit)\(count == 1 ? "" : "s") ago" }
    if seconds < 3_600 { return ago(max(1, (seconds + 30) / 60), "minute") }
    if seconds < 86_400 { return ago((seconds + 1_800) / 3_600, "hour") }
    return ago((seconds + 43_200) / 86_400, "day")
}

/// "45 s", "12:05", "1:02:03": a duration in seconds as a clock reading.
public func clockDuration(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds >= 0 else { return "?" }
    guard let total = wholeNumber(seconds) else { return "?" }
    let (hours, minutes, secs) = (total / 3_600, (total % 3_600) / 60, total % 60)
    if hours > 0 { return "\(hours):" + pad(minutes) + ":" + pad(secs) }
    return "\(minutes):" + pad(secs)
}

private func pad(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
