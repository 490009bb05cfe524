import AlmanacCore
import AlmanacModels
import FoundationEssentials
import Logging

/// Moves the daemon's `SimulatedClock` to the time a test writes into the file
/// `ALMANAC_SIMULATED_CLOCK` names, looking every 10 ms (real time), and reports beside it
/// (`SimulatedTime.reportPath`) what the clock reads, the earliest deadline a sleep waits for
/// and how many sleep — so that a test can move the clock to the daemon's next deadline
/// (a month in minutes, event by event). A file that holds no time leaves the clock where it
/// is, and says so in the log once. A `Service`, first in the daemon's group.
final class SimulatedClockFollower: Service {
    private let clock: SimulatedClock
    private let path: String
    private let logger: Logger
    /// How often the file is read.
    static let interval: Duration = .milliseconds(10)

    init(clock: SimulatedClock, path: String, logger: Logger) {
        self.clock = clock
        self.path = path
        self.logger = logger
    }

    func run() async {
        var refused: String?
        var reported: UInt64?
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
            let status = clock.status
            if status.generation != reported {
                reported = status.generation
                report(status)
            }
            try? await RealTime.sleep(for: Self.interval)
        }
    }

    /// Writes "NOW NEXT SLEEPS" beside the file, replacing what was there in one step.
    private func report(_ status: SimulatedClock.Status) {
        let next = status.nextDeadline.map { "\($0.timeIntervalSince1970)" } ?? "-"
        let line = "\(status.now.timeIntervalSince1970) \(next) \(status.sleepers)\n"
        do {
            try Data(line.utf8).write(to: URL(fileURLWithPath: SimulatedTime.reportPath(for: path)), options: .atomic)
        } catch {
            logger.warning("could not report the simulated clock", metadata: ["error": "\(error)"])
        }
    }
}
