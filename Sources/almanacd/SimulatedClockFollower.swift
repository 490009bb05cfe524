import AlmanacCore
import AlmanacModels
import FoundationEssentials
import Logging

/// Moves the daemon's `SimulatedClock` to the time a test writes into the file
/// `ALMANAC_SIMULATED_CLOCK` names, and reports beside it (`SimulatedTime.reportPath`) what
/// the clock reads, the earliest deadline a sleep waits for, how many sleep, how much work is
/// under way (`busy`: refresh schedulers not at rest, downloads' transfers) and how many
/// sleeps began late — so that a test can move the clock to the daemon's next deadline once
/// the daemon has caught up (a month in minutes, event by event). It reads the file every
/// millisecond (real time) for a while after anything changed, else every 10 ms. A file that
/// holds no time leaves the clock where it is, and says so in the log once. A `Service`,
/// first in the daemon's group.
final class SimulatedClockFollower: Service {
    private let clock: SimulatedClock
    private let path: String
    private let logger: Logger
    /// How much work is under way (`SimulatedTime.Report.busy`).
    private let countingWork: @Sendable () -> Int
    /// How often the file is read while nothing changes, and soon after a change.
    static let interval: Duration = .milliseconds(10)
    static let briskInterval: Duration = .milliseconds(1)
    /// How many brisk readings follow a change.
    static let briskReadings = 200
    /// How often `snapshot()` reads the work and the clock again while the clock keeps changing.
    static let readingsForASnapshot = 100

    /// Follows the file at `path` with `clock`; `countingWork` says how much work is under way.
    init(clock: SimulatedClock, path: String, countingWork: @escaping @Sendable () -> Int, logger: Logger) {
        self.clock = clock
        self.path = path
        self.countingWork = countingWork
        self.logger = logger
    }

    func run() async {
        var refused: String?
        var reported: SimulatedTime.Report?
        var brisk = 0
        while !Task.isCancelled {
            let text = SimulatedTime.text(at: path)
            if let date = text.flatMap({ SimulatedTime.parse($0) }) {
                clock.set(date)
                refused = nil
            } else if refused != text ?? "" {
                refused = text ?? ""
                logger.warning("the simulated clock's file holds no time; the clock stays where it is",
                               metadata: ["file": "\(path)", "text": "\((text ?? "unreadable").prefix(SimulatedTime.maximumBytes).debugDescription)"])
            }
            let report = snapshot()
            if report != reported {
                reported = report
                write(report)
                brisk = Self.briskReadings
            }
            brisk = max(0, brisk - 1)
            try? await RealTime.sleep(for: brisk > 0 ? Self.briskInterval : Self.interval)
        }
    }

    /// The clock and the work under way at one moment. The work is read first, then the clock:
    /// a part found at rest has put its sleep on the clock already (`whenAsleep`), so the
    /// deadline is in the status read after. And the clock is read before the work too: when a
    /// sleep began, ended or was cancelled meanwhile (its generation moved), a part may have
    /// left its rest between the two readings and taken its sleep off the clock, so both are
    /// read again — else the report would show it at rest without its deadline, and the test
    /// would move the clock past it.
    private func snapshot() -> SimulatedTime.Report {
        var work = 0
        var status = clock.status
        var settled = false
        for _ in 0..<Self.readingsForASnapshot where !settled {
            let before = status.generation
            work = countingWork()
            status = clock.status
            settled = status.generation == before
        }
        // Still changing after every try: something is at work.
        return SimulatedTime.Report(now: status.now, nextDeadline: status.nextDeadline, sleepers: status.sleepers,
                                    busy: settled ? work : max(work, 1), late: status.late)
    }

    /// Writes the report beside the file, replacing what was there in one step.
    private func write(_ report: SimulatedTime.Report) {
        do {
            try Data(report.line.utf8).write(to: URL(fileURLWithPath: SimulatedTime.reportPath(for: path)), options: .atomic)
        } catch {
            logger.warning("could not report the simulated clock", metadata: ["error": "\(error)"])
        }
    }
}
