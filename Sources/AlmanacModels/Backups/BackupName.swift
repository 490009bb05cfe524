public import FoundationEssentials

/// The name of a backup's file: `almanac-YYYYMMDD-HHMMSS-<reason>.sqlite`, the time in UTC (so
/// that names sort as the times do, across daylight-saving changes), the reason in lower-case
/// letters, digits and hyphens; another taken in the same second for the same reason ends
/// `.2`, `.3`… before `.sqlite` (its `copy`). Only such names are backups: anything else in
/// the folder is left alone (never listed, restored or deleted).
public enum BackupName {
    /// The reasons the daemon gives.
    public static let daily = "daily"
    public static let manual = "manual"
    public static let beforeRestore = "before-restore"
    public static let imported = "imported"
    /// Before the schema's migration number `number` (1-based) runs on the state file.
    public static func beforeMigration(_ number: Int) -> String { "before-migration-\(number)" }

    private static let prefix = "almanac-"
    private static let suffix = ".sqlite"

    /// The name of a backup taken at `date` for `reason`; `copy` above 1 for another taken in the same second.
    public static func make(takenAt date: Date, reason: String, copy: Int = 1) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - day * 86_400
        let calendar = String(CalendarDay.string(daysSinceEpoch: day).filter { $0 != "-" })
        func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let clock = pad(time / 3600) + pad(time / 60 % 60) + pad(time % 60)
        return prefix + calendar + "-" + clock + "-" + reason + (copy > 1 ? ".\(copy)" : "") + suffix
    }

    /// When a backup named `name` was taken, why, and which of that second's it is (1: the
    /// first); `nil` for a name that is not a backup's.
    public static func parse(_ name: String) -> (takenAt: Date, reason: String, copy: Int)? {
        guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.utf8.count <= 200 else { return nil }
        var middle = name.dropFirst(prefix.count).dropLast(suffix.count)
        var copy = 1
        if let dot = middle.lastIndex(of: ".") {
            let digits = middle[middle.index(after: dot)...]
            guard let number = Int(digits), number > 1, number <= 100_000, digits.allSatisfy(\.isASCIIDigit), String(number) == digits else { return nil }
            copy = number
            middle = middle[..<dot]
        }
        let parts = middle.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 8, parts[1].count == 6,
              let date = Int(parts[0]), let time = Int(parts[1]), parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit)
        else { return nil }
        let reason = String(parts[2])
        guard !reason.isEmpty, reason.utf8.allSatisfy(isReasonByte) else { return nil }
        let (year, month, dayOfMonth) = (date / 10_000, date / 100 % 100, date % 100)
        let (hour, minute, second) = (time / 10_000, time / 100 % 100, time % 100)
        guard (1...12).contains(month), (1...31).contains(dayOfMonth), hour < 24, minute < 60, second < 60 else { return nil }
        let days = CalendarDay.daysSinceEpoch(year: year, month: month, day: dayOfMonth)
        // A day that does not exist (31 April) would name another one.
        guard CalendarDay.string(daysSinceEpoch: days).filter({ $0 != "-" }) == String(parts[0]) else { return nil }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return (Date(timeIntervalSince1970: Double(seconds)), reason, copy)
    }

    private static func isReasonByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
