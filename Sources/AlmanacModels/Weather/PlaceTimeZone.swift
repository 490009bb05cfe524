public import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A place's time zone from the system's time-zone database (`/usr/share/zoneinfo`, or
/// `TZDIR`), read from its TZif file (RFC 8536): the offset from UTC at any moment, daylight
/// saving included, past the file's last transition by its POSIX rule. Foundation's own time
/// zones would pull ICU into the CLI (FoundationEssentials alone knows none but GMT), and
/// moonrise on the days after a daylight-saving change must be on the clock the place keeps then.
///
/// The identifier comes from a weather service ("Europe/Berlin"), so it is checked before it
/// names a file: letters, digits, `_`, `+` and `-` in at most three `/`-separated parts (no
/// dot, so no `..`), at most 64 characters; the file is read at most 256 KiB and parsed
/// trusting none of its counts.
public struct PlaceTimeZone: Sendable, Hashable {
    /// The identifier it was found by ("Europe/Berlin").
    public let identifier: String
    /// Transitions, in time order: from `at` (Unix seconds) on, the offset is `offset`.
    let transitions: [Transition]
    /// The offset before the first transition.
    let initialOffset: Int
    /// The rule after the last transition (the file's footer), when it has one.
    let rule: PosixTimeZoneRule?

    struct Transition: Sendable, Hashable {
        let at: Int64
        let offset: Int
    }

    /// The most bytes a zone file may have (the largest in tzdata is about 10 KiB).
    static let maximumBytes = 256 * 1024
    /// How many zones are kept once read.
    static let kept = 64
    private static let cache = KeyedCache<String, PlaceTimeZone?>(capacity: kept)

    /// The zone named `identifier` on this system; `nil` when the name is not a zone name or
    /// no readable zone file has it.
    public static func named(_ identifier: String) -> PlaceTimeZone? {
        guard isZoneName(identifier) else { return nil }
        if let known = cache[identifier] { return known }
        let directory = getenv("TZDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
        let zone = SmallFile.bytes(at: directory + "/" + identifier, maximumBytes: maximumBytes).flatMap { PlaceTimeZone(identifier: identifier, tzif: $0) }
        cache[identifier] = .some(zone)
        return zone
    }

    /// Whether `name` may name a zone file: no dot, no leading `/`, no empty part.
    public static func isZoneName(_ name: String) -> Bool {
        name.utf8.count <= 64 && name.wholeMatch(of: /[A-Za-z0-9_+\-]+(\/[A-Za-z0-9_+\-]+){0,2}/) != nil
    }

    /// The offset from UTC, in seconds, at `date`.
    public func utcOffset(at date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e15 else { return initialOffset }
        let time = Int64(seconds.rounded(.down))
        guard let first = transitions.first, time >= first.at else {
            return transitions.isEmpty ? rule?.utcOffset(at: time) ?? initialOffset : initialOffset
        }
        if let last = transitions.last, time >= last.at, let rule { return rule.utcOffset(at: time) }
        // The last transition at or before `time`.
        var (low, high) = (0, transitions.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle].at <= time { low = middle } else { high = middle - 1 }
        }
        return transitions[low].offset
    }
}
