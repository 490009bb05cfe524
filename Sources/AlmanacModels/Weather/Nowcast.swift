public import FoundationEssentials

/// Precipitation in fifteen-minute steps for the next hours (Open-Meteo's `minutely_15`), and
/// what it says of rain in the next two hours (`outlook(at:)`, the one rule for it).
public struct Nowcast: Sendable, Hashable, Codable {
    /// Precipitation below this per step (mm in fifteen minutes) is drizzle, not rain: 0.1 mm,
    /// Open-Meteo's smallest amount, counts; a finer model's traces do not (decisions.md).
    public static let rainThreshold = 0.1
    /// How far ahead the outlook looks.
    public static let window: TimeInterval = 2 * 60 * 60
    /// The most steps kept (three hours: the window and the length of a spell it shows).
    public static let maximumSteps = 12

    /// The steps in time order, each following the one before.
    public var steps: [NowcastStep]

    public init(steps: [NowcastStep]) {
        self.steps = steps
    }

    /// What the steps say of rain in the two hours after `now`; `nil` when they do not cover
    /// them (no step under way at `now`, or they end before the answer is known). One dry step
    /// between wet ones does not end a spell; the minutes count from `now`.
    public func outlook(at now: Date) -> RainOutlook? {
        // The step under way and those after it, while they follow each other without a gap.
        var ahead: [NowcastStep] = []
        for step in steps where step.end > now {
            if let last = ahead.last, step.start != last.end { break }
            ahead.append(step)
        }
        guard let first = ahead.first, first.start <= now else { return nil }
        let raw = ahead.map(\.isWet)
        var wet = raw
        for i in raw.indices.dropFirst().dropLast() where !raw[i] && raw[i - 1] && raw[i + 1] { wet[i] = true }
        let horizon = now.addingTimeInterval(Self.window)
        let coversWindow = ahead[ahead.count - 1].end >= horizon
        if wet[0] {
            guard let dry = wet.firstIndex(of: false), ahead[dry].start < horizon else { return coversWindow ? .continuing : nil }
            return .stopping(inMinutes: Self.minutes(from: now, to: ahead[dry].start))
        }
        guard let rain = wet.firstIndex(of: true), ahead[rain].start < horizon else { return coversWindow ? .dry : nil }
        let lasting = wet[rain...].firstIndex(of: false).map { Self.minutes(from: ahead[rain].start, to: ahead[$0].start) }
        return .starting(inMinutes: Self.minutes(from: now, to: ahead[rain].start), lasting: lasting)
    }

    /// Whole minutes from `start` to `end`, to the nearest five, five at least.
    static func minutes(from start: Date, to end: Date) -> Int {
        let minutes = end.timeIntervalSince(start) / 60
        return max(5, Int((minutes / 5).rounded()) * 5)
    }
}
