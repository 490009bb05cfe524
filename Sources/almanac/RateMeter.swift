import FoundationEssentials

/// Bytes per second over the last few seconds, from the received counts a download reports.
struct RateMeter {
    private var samples: [(time: Double, bytes: UInt64)] = []
    /// How far back the rate looks.
    let window: Double

    init(window: Double = 5) { self.window = window }

    mutating func add(_ bytes: UInt64, at time: Double = Date().timeIntervalSinceReferenceDate) {
        if let last = samples.last, bytes < last.bytes { samples.removeAll() }  // started over
        samples.append((time, bytes))
        while let first = samples.first, time - first.time > window, samples.count > 2 { samples.removeFirst() }
    }

    /// `nil` until two samples at least a fifth of a second apart.
    var bytesPerSecond: Double? {
        guard let first = samples.first, let last = samples.last, last.time - first.time >= 0.2 else { return nil }
        return Double(last.bytes - first.bytes) / (last.time - first.time)
    }
}
