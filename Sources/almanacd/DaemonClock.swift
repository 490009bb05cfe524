import AlmanacCore
import AlmanacModels
import FoundationEssentials
import Logging

/// The clock almanacd runs on: the computer's, unless `ALMANAC_SIMULATED_CLOCK` names a file
/// holding a simulated time — for tests only: the shipped unit and D-Bus activation file never
/// set it (`SimulatedClockTests` in IntegrationTests checks both). Then the daemon starts at
/// the file's time and follows it (`SimulatedClockFollower`).
enum DaemonClock {
    /// Makes the follower of a simulated clock once the work it counts is known (`countingWork`
    /// says how much is under way).
    typealias Follower = (_ countingWork: @escaping @Sendable () -> Int) -> SimulatedClockFollower

    /// The clock, and what makes its follower when it is simulated.
    static func choose(environment: [String: String], logger: Logger) throws -> (clock: any WallClock, follower: Follower?) {
        guard let path = SimulatedTime.path(in: environment) else { return (SystemClock(), nil) }
        guard let start = SimulatedTime.read(at: path) else {
            throw DaemonError("\(SimulatedTime.variable) names \(path), which holds no time: write the simulated time there as Unix seconds (such as 1774738800), or unset the variable to run on the computer's clock.")
        }
        logger.warning("running on a simulated clock: for tests only", metadata: ["file": "\(path)", "variable": "\(SimulatedTime.variable)"])
        let clock = SimulatedClock(startingAt: start)
        return (clock, { SimulatedClockFollower(clock: clock, path: path, countingWork: $0, logger: logger) })
    }
}
