public import FoundationEssentials

/// Where a demo simulation starts.
public enum DemoSeed {
    /// A seed from the clock, so that two demo runs show different weather and episodes
    /// (`almanacd --demo-seed N` replays one).
    public static func fromClock(_ now: Date) -> UInt64 {
        UInt64(bitPattern: Int64((now.timeIntervalSince1970 * 1_000_000).rounded(.down)))
    }
}
