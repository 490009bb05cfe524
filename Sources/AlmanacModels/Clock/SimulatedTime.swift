public import FoundationEssentials

/// The simulated time tests run almanacd on: `ALMANAC_SIMULATED_CLOCK` names a file that holds
/// the time as Unix seconds ("1774738800", "1774738800.25"), which the test rewrites to move
/// it. The daemon follows the file (`SimulatedClockFollower`), the CLI reads it for "3 hours
/// ago", the Open-Meteo fixture for its dates: one time for all three. The shipped unit and
/// D-Bus activation file never set the variable (docs/decisions.md, "One clock").
public enum SimulatedTime {
    /// The environment variable naming the file.
    public static let variable = "ALMANAC_SIMULATED_CLOCK"
    /// The most bytes the file may hold: a time is 20 at most; anything longer is not one.
    public static let maximumBytes = 64
    /// The latest time the file may hold: the end of year 9999.
    public static let latest: Double = 253_402_300_799

    /// The time `text` says — Unix seconds, at most nine decimals, from 1970 to the end of
    /// 9999, with white space around — or `nil` for anything else.
    public static func parse(_ text: String) -> Date? {
        var trimmed = Substring(text)
        while trimmed.first?.isWhitespace == true { trimmed.removeFirst() }
        while trimmed.last?.isWhitespace == true { trimmed.removeLast() }
        guard trimmed.wholeMatch(of: /[0-9]{1,12}(\.[0-9]{1,9})?/) != nil, let seconds = Double(trimmed),
              seconds.isFinite, seconds <= latest else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// What the file at `path` holds as text (`nil`: it cannot be read, is not UTF-8, or holds
    /// more than `maximumBytes`: it is never read further).
    public static func text(at path: String) -> String? {
        SmallFile.bytes(at: path, maximumBytes: maximumBytes).flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// The time the file at `path` says (`nil`: none).
    public static func read(at path: String) -> Date? {
        text(at: path).flatMap { parse($0) }
    }

    /// The time in the file named by `environment`'s `ALMANAC_SIMULATED_CLOCK`; `nil` when it
    /// is not set (or is empty).
    public static func path(in environment: [String: String]) -> String? {
        environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Where the daemon reports the time it has reached beside `path` (`Report`).
    public static func reportPath(for path: String) -> String {
        path + ".reached"
    }
}
