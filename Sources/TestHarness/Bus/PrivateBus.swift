public import Foundation
import Locking
import Synchronization

/// A private `dbus-daemon` for tests: started on demand, on its own socket in a temporary
/// folder, and killed when the value goes away. No session bus is needed. Its configuration
/// is `scripts/private-bus.conf.in`, the one the scripts' buses use too.
///
///     let bus = try PrivateBus()
///     let connection = try await Connection.connect(to: bus.address)
public final class PrivateBus: Sendable {
    /// The address clients connect to (`unix:path=…`), without the server's `guid`, which
    /// changes when the bus restarts: the same address reaches the bus after `restart()`.
    public let address: String
    /// The temporary folder that holds the socket and the configuration.
    public let directory: URL
    /// Starts a bus. `serviceDirectory`, when given, holds D-Bus activation files
    /// (`*.service`) the bus may use to start services on demand; `environment` is what
    /// activated services inherit; `limits` replace the template's (`.daemonDefaults`: a
    /// bus as strict as a system bus).
    public init(serviceDirectory: URL? = nil, environment: [String: String]? = nil, limits: BusLimits = .session) throws {
        let template = try String(contentsOf: Self.template, encoding: .utf8)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("almanac-bus-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("bus").path
        let extra = (serviceDirectory.map { "  <servicedir>\(Self.escaped($0.path))</servicedir>\n" } ?? "") + limits.elements
        let config = template
            .replacingOccurrences(of: "@SOCKET@", with: Self.escaped(socket))
            .replacingOccurrences(of: "@EXTRA@", with: extra)
        let configFile = directory.appendingPathComponent("bus.conf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)

        var environment = environment ?? ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        let process = try Self.launch(configFile, environment)
        // The first line on stdout is the address, printed once the bus listens.
        guard let line = process.firstLine(timeout: 60), !line.isEmpty else {
            throw HarnessError(message: "dbus-daemon did not print its address")
        }
        self.address = Self.withoutGUID(line)
        self.directory = directory
        self.configFile = configFile
        self.launchEnvironment = environment
        self.process = Locked(process)
    }

    private let configFile: URL
    private let launchEnvironment: [String: String]
    private let process: Locked<ChildProcess>

    /// The configuration every private bus Almanac starts shares (the session bus's policy
    /// and limits), with `@SOCKET@` and `@EXTRA@` to fill in.
    static let template = SourceTree.root.appendingPathComponent("scripts/private-bus.conf.in")

    /// `text` made safe inside an XML element.
    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    private static func launch(_ configFile: URL, _ environment: [String: String]) throws -> ChildProcess {
        try ChildProcess(
            PrivateBus.find("dbus-daemon"),
            ["--config-file=\(configFile.path)", "--nofork", "--print-address=1"],
            environment: environment
        )
    }

    private static func withoutGUID(_ address: String) -> String {
        address.split(separator: ",").filter { !$0.hasPrefix("guid=") }.joined(separator: ",")
    }

    deinit { stop() }

    /// Kills the bus (SIGKILL) and waits for it; clients see their connection drop.
    public func kill() {
        let process = process.withLock { $0 }
        process.send(SIGKILL)
        process.wait()
    }

    /// Starts a new bus on the same socket, so the same address, after `kill()`: what
    /// clients see when the session bus restarts. Kills the running one first, if any.
    public func restart() throws {
        kill()
        let fresh = try Self.launch(configFile, launchEnvironment)
        guard let line = fresh.firstLine(timeout: 60), Self.withoutGUID(line) == address else {
            fresh.send(SIGKILL)
            fresh.wait()
            throw HarnessError(message: "the restarted dbus-daemon did not listen at \(address)")
        }
        process.withLock { $0 = fresh }
    }

    /// Stops the bus and removes its folder.
    public func stop() {
        let process = process.withLock { $0 }
        process.send(SIGTERM)
        process.wait()
        try? FileManager.default.removeItem(at: directory)
    }

    /// An environment in which `DBUS_SESSION_BUS_ADDRESS` names this bus, and
    /// `XDG_CONFIG_HOME` a folder of its own (the CLI's `cli.conf`: a test never reads or
    /// writes the user's).
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        return environment
    }

    /// The full path of a program on `PATH`.
    public static func find(_ program: String) throws -> URL {
        if program.hasPrefix("/") {
            guard FileManager.default.isExecutableFile(atPath: program) else {
                throw HarnessError(message: "\(program) is not installed (run `make test`, which installs it)")
            }
            return URL(fileURLWithPath: program)
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(program)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw HarnessError(message: "\(program) is not installed (run `make test`, which installs it)")
    }
}
