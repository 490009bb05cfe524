import FoundationEssentials
import Glibc

/// The user's offset from UTC, in seconds, at `date` (from `TZ` or /etc/localtime, through
/// the C library: Foundation's time zones would pull ICU into the CLI).
func localUTCOffset(at date: Date) -> Int {
    guard let seconds = wholeSeconds(date.timeIntervalSince1970) else { return 0 }
    var time = time_t(seconds)
    var parts = tm()
    guard localtime_r(&time, &parts) != nil else { return 0 }
    return Int(parts.tm_gmtoff)
}

private func wholeSeconds(_ value: Double) -> Int? {
    guard value.isFinite, abs(value) < 1e15 else { return nil }
    return Int(value.rounded(.down))
}
