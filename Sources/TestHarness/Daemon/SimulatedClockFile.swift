public import AlmanacModels
public import Foundation

/// The file a test moves almanacd's simulated clock with (`ALMANAC_SIMULATED_CLOCK`), and
/// the daemon's report beside it. Give `environment` to the daemon, the CLI and the Open-Meteo
/// fixture, and all three read the same time.
public struct SimulatedClockFile: Sendable {
    /// The file holding the time.
    public let path: String

    /// A clock file in `folder` (the bus's), set to `start`.
    public init(in folder: URL, startingAt start: Date) throws {
        path = folder.appendingPathComponent("simulated-clock").path
        try set(start)
    }

    /// `ALMANAC_SIMULATED_CLOCK` naming the file.
    public var environment: [String: String] { [SimulatedTime.variable: path] }

    /// Moves the clock to `date` (written whole, then renamed into place).
    public func set(_ date: Date) throws {
        try Data("\(date.timeIntervalSince1970)\n".utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// What the daemon reported last: the time its clock reads, its next deadline, how many
    /// sleep, the work under way and the sleeps that began late (`SimulatedTime.Report`).
    public var reached: SimulatedTime.Report? {
        guard let text = try? String(contentsOfFile: SimulatedTime.reportPath(for: path), encoding: .utf8) else { return nil }
        return SimulatedTime.Report(text)
    }
}
