/// Seeded randomness without state for the demo providers: the same seed and salts always
/// give the same number, so a simulation is a function of its seed and its step, and a test
/// that gives a seed sees the same values on every run.
struct DemoRandom: Sendable {
    let seed: UInt64

    /// A number in `0..<1` for these salts.
    func unit(_ salts: UInt64...) -> Double {
        var state = Self.mix(seed)
        for salt in salts { state = Self.mix(state ^ salt) }
        return Double(state >> 11) / Double(UInt64(1) << 53)
    }

    /// A number in `range` for these salts.
    func value(in range: ClosedRange<Double>, _ salts: UInt64...) -> Double {
        var state = Self.mix(seed)
        for salt in salts { state = Self.mix(state ^ salt) }
        return range.lowerBound + (range.upperBound - range.lowerBound) * Double(state >> 11) / Double(UInt64(1) << 53)
    }

    /// SplitMix64's finaliser: every bit of `x` moves every bit of the result.
    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A salt for a name (FNV-1a).
    static func salt(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }
}
