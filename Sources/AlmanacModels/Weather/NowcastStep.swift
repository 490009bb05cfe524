public import FoundationEssentials

/// Fifteen minutes of a nowcast: how much precipitation falls from `start` to `end`.
/// Metric, like every model: mm.
public struct NowcastStep: Sendable, Hashable, Codable {
    /// How long a step lasts.
    public static let length: TimeInterval = 15 * 60

    /// When the fifteen minutes begin.
    public var start: Date
    /// Precipitation in these fifteen minutes, mm.
    public var precipitation: Double

    public init(start: Date, precipitation: Double) {
        self.start = start
        self.precipitation = precipitation
    }

    /// When the fifteen minutes end.
    public var end: Date { start.addingTimeInterval(Self.length) }

    /// Whether it counts as rain (`Nowcast.rainThreshold` or more; drizzle below it does not).
    public var isWet: Bool { precipitation >= Nowcast.rainThreshold }
}
