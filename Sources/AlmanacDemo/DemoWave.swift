#if canImport(Glibc)
import Glibc
#endif

/// A smooth wave in `-1...1` over steps: three sines with seeded frequencies and phases.
/// Its steepest slope is known, so a caller can bound how much a value moves in one step.
struct DemoWave: Sendable {
    private let frequencies: [Double]
    private let phases: [Double]
    private static let weights = [1.0, 0.5, 0.25]

    /// A wave whose slope is at most `steepest` (per step).
    init(_ random: DemoRandom, _ salt: UInt64, steepest: Double) {
        // Relative frequencies 1 : ~2.3 : ~5.1, each varied; then scaled to the slope wanted.
        let relative = [random.value(in: 0.8...1.2, salt, 1), random.value(in: 1.9...2.7, salt, 2), random.value(in: 4.3...5.9, salt, 3)]
        let slope = zip(Self.weights, relative).map { $0 * $1 }.reduce(0, +) / Self.weights.reduce(0, +)
        frequencies = relative.map { $0 * steepest / slope }
        phases = (0..<3).map { random.value(in: 0...(2 * Double.pi), salt, 10 + UInt64($0)) }
    }

    /// The wave at `step` (steps need not be whole).
    func callAsFunction(_ step: Double) -> Double {
        var sum = 0.0
        for index in 0..<3 { sum += Self.weights[index] * sin(frequencies[index] * step + phases[index]) }
        return sum / Self.weights.reduce(0, +)
    }
}
