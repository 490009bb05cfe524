import AlmanacWire
import DBus
import Foundation

/// A running `almanacd` on a private bus, started from a preset. Its state and downloads
/// are in the bus's folder (`state`, `data`), its log in `almanacd.log` there.
public final class RunningDaemon: @unchecked Sendable {
    // @unchecked Sendable: `process` is replaced only by `restart`, which tests call from one task.
    public let bus: PrivateBus
    /// The daemon's process (a new one after `restart()`).
    public private(set) var process: ChildProcess
    public let preset: DaemonPreset
    /// Variables set in the daemon's environment beyond the test's own.
    public let environment: [String: String]
    /// A small file system of the daemon's own over one of its folders, at each start.
    public let smallFilesystem: SmallFilesystem?

    /// Starts the daemon (with `environment` added to the test's; over `smallFilesystem` when
    /// given) and waits until it owns its name.
    public init(bus: PrivateBus, _ preset: DaemonPreset = .offline, environment: [String: String] = [:],
                smallFilesystem: SmallFilesystem? = nil) async throws {
        self.bus = bus
        self.preset = preset
        self.environment = environment
        self.smallFilesystem = smallFilesystem
        process = try Self.launch(bus, preset, folder: bus.directory, environment: environment, smallFilesystem: smallFilesystem)
        try await waitForName()
        await waitForDemoEpisodes()
    }

    /// The demo provider's episodes come with its first refresh, which runs after the name is
    /// taken: waits (a minute at most, then goes on) until that refresh has brought episodes
    /// and no fetch is under way, so that a test reading them at once sees them all however
    /// busy the machine is.
    private func waitForDemoEpisodes() async {
        guard preset.options.contains(where: { $0.name == "--provider" && $0.value == "demo" }),
              let client = try? await AlmanacClient.connect(address: bus.address) else { return }
        _ = await eventually(every: .milliseconds(50)) {
            guard let (_, state) = try? await client.state(of: .podcasts), (state["episodeCount"]?.integerValue ?? 0) > 0 else { return false }
            return (try? await client.property(BusContract.Document1.loading, of: DocumentName.podcasts)) == false
        }
        await client.connection.close()
    }

    private static func launch(_ bus: PrivateBus, _ preset: DaemonPreset, folder: URL, environment: [String: String] = [:],
                               smallFilesystem: SmallFilesystem? = nil) throws -> ChildProcess {
        let (executable, arguments) = try smallFilesystem?.commandLine(Binaries.almanacd, arguments(bus, preset, folder: folder))
            ?? (URL(fileURLWithPath: Binaries.almanacd), arguments(bus, preset, folder: folder))
        // The log goes to a file: a pipe nobody drains would stop a daemon that logs a lot.
        return try ChildProcess(executable, arguments,
                         environment: environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 },
                         errorsTo: bus.directory.appendingPathComponent("almanacd.log").path)
    }

    private static func arguments(_ bus: PrivateBus, _ preset: DaemonPreset, folder: URL) -> [String] {
        ["--address", bus.address, "--state-dir", folder.appendingPathComponent("state").path,
         "--data-dir", folder.appendingPathComponent("data").path] + preset.arguments
    }

    /// Runs `almanacd` on `bus` until it ends by itself (refusing its options, or finding the
    /// name taken) with its state and data in `folder` below the bus's folder, and says how it ended.
    public static func run(on bus: PrivateBus, _ preset: DaemonPreset = .offline, folder: String = "once",
                           environment: [String: String] = [:]) async throws -> Tool.Result {
        try await Tool.runDetached(Binaries.almanacd, arguments(bus, preset, folder: bus.directory.appendingPathComponent(folder)),
                                   environment: environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 })
    }

    /// What the daemon (and the ones before it, after a restart) logged so far.
    public var log: String { Self.log(on: bus) }

    /// What the daemons run on `bus` logged so far.
    public static func log(on bus: PrivateBus) -> String {
        (try? String(contentsOf: bus.directory.appendingPathComponent("almanacd.log"), encoding: .utf8)) ?? ""
    }

    /// Waits until the daemon owns `org.almanac.Almanac1`; throws when it exits first or
    /// `timeout` passes.
    public func waitForName(timeout: Duration = .seconds(60)) async throws {
        let watcher = try await Connection.connect(to: bus.address)
        let owned: Bool
        do {
            owned = try await eventually(timeout: timeout) {
                if try await watcher.nameOwner(of: BusContract.serviceName) != nil { return true }
                if process.hasExited { throw HarnessError(message: "almanacd exited with \(process.wait())") }
                return false
            }
        } catch {
            await watcher.close()
            throw error
        }
        // Gone before the test goes on: its leaving is no later wake-up of the daemon's.
        await watcher.close()
        guard owned else { throw HarnessError(message: "almanacd did not take its name within \(timeout)") }
    }

    /// Kills the daemon with SIGKILL and starts a new one with the same preset and folders.
    public func restart() async throws {
        process.send(SIGKILL)
        process.wait()
        process = try Self.launch(bus, preset, folder: bus.directory, environment: environment, smallFilesystem: smallFilesystem)
        try await waitForName()
    }

    /// Starts a new daemon with the same preset and folders, after `stop()`.
    public func start() async throws {
        precondition(process.hasExited, "start() follows stop()")
        process = try Self.launch(bus, preset, folder: bus.directory, environment: environment, smallFilesystem: smallFilesystem)
        try await waitForName()
    }

    /// Asks the daemon to stop with SIGTERM and waits (as long as `eventually` does: a budget,
    /// not a claim) for it to end by itself: its exit status, or `nil` when it had not ended
    /// by then — it is killed then, so that a daemon that ignores SIGTERM fails its test
    /// instead of hanging it.
    public func stopByItself() async -> Int32? {
        process.send(SIGTERM)
        guard await eventually(every: .milliseconds(50), { process.hasExited }) else {
            process.send(SIGKILL)
            process.wait()
            return nil
        }
        return process.wait()
    }

    /// Stops the daemon with SIGTERM; its exit status.
    @discardableResult
    public func stop() -> Int32 {
        process.send(SIGTERM)
        return process.wait()
    }

    deinit { stop() }
}
