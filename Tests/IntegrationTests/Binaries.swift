import DBus
import Foundation
import TestHarness

/// The built `almanacd` and `almanac`, found beside the test bundle.
enum Binaries {
    static let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    static var almanacd: String { folder.appendingPathComponent("almanacd").path }
    static var almanac: String { folder.appendingPathComponent("almanac").path }
}

/// A running `almanacd` on a private bus.
final class RunningDaemon: @unchecked Sendable {
    // @unchecked Sendable: `process` is replaced only by `restart`, which tests call from one task.
    let bus: PrivateBus
    private(set) var process: ChildProcess
    let arguments: [String]

    /// Starts the daemon and waits until it owns its name.
    init(bus: PrivateBus, arguments: [String] = ["--provider", "demo", "--weather-interval", "3600", "--podcast-interval", "3600"]) async throws {
        self.bus = bus
        self.arguments = arguments
        process = try Self.launch(bus, arguments)
        try await waitForName()
    }

    private static func launch(_ bus: PrivateBus, _ arguments: [String]) throws -> ChildProcess {
        let state = bus.directory.appendingPathComponent("state").path
        let data = bus.directory.appendingPathComponent("data").path
        // The log goes to a file: a pipe nobody drains would stop a daemon that logs a lot.
        return try ChildProcess(URL(fileURLWithPath: Binaries.almanacd),
                                ["--address", bus.address, "--state-dir", state, "--data-dir", data] + arguments,
                                errorsTo: bus.directory.appendingPathComponent("almanacd.log").path)
    }

    /// What the daemon (and the ones before it, after a restart) logged so far.
    var log: String { Self.log(on: bus) }

    /// What the daemons run on `bus` logged so far.
    static func log(on bus: PrivateBus) -> String {
        (try? String(contentsOf: bus.directory.appendingPathComponent("almanacd.log"), encoding: .utf8)) ?? ""
    }

    func waitForName(timeout: Duration = .seconds(10)) async throws {
        let watcher = try await Connection.connect(to: bus.address)
        defer { Task { await watcher.close() } }
        let owned = try await eventually(timeout: timeout) {
            if try await watcher.nameOwner(of: BusName("org.almanac.Almanac1")) != nil { return true }
            if process.hasExited { throw HarnessError(message: "almanacd exited with \(process.wait())") }
            return false
        }
        guard owned else { throw HarnessError(message: "almanacd did not take its name within \(timeout)") }
    }

    /// Kills the daemon with SIGKILL and starts a new one.
    func restart() async throws {
        process.send(SIGKILL)
        process.wait()
        process = try Self.launch(bus, arguments)
        try await waitForName()
    }

    func stop() -> Int32 {
        process.send(SIGTERM)
        return process.wait()
    }

    deinit { _ = stop() }
}

/// Runs `almanac` with `arguments` against `bus`.
func almanac(_ arguments: [String], bus: PrivateBus, environment extra: [String: String] = [:]) async throws -> Tool.Result {
    var environment = bus.environment
    environment["NO_COLOR"] = "1"
    environment.merge(extra) { $1 }
    return try await Tool.runDetached(Binaries.almanac, arguments, environment: environment)
}
