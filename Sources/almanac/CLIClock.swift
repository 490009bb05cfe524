import AlmanacModels
import FoundationEssentials

/// The time the CLI shows things against ("3 hours ago", which days are ahead): the
/// computer's, or — when a test runs almanacd on a simulated clock and sets
/// `ALMANAC_SIMULATED_CLOCK` for the CLI too — the same simulated time the daemon reads, so that
/// both agree (docs/decisions.md, "One clock"). Durations the CLI measures itself (a download's
/// rate, a spinner) stay on the computer's clock.
func clockNow() -> Date {
    SimulatedTime.path(in: ProcessInfo.processInfo.environment).flatMap { SimulatedTime.read(at: $0) } ?? Date()
}
