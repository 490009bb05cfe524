public import Foundation

/// The built `almanacd` and `almanac`, found beside the test bundle.
public enum Binaries {
    /// The build folder the tests run from.
    public static let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    /// The daemon.
    public static var almanacd: String { folder.appendingPathComponent("almanacd").path }
    /// The CLI.
    public static var almanac: String { folder.appendingPathComponent("almanac").path }
}

/// Runs `almanac` with `arguments` against `bus`, without colours; `extra` is added to the
/// environment; it is killed after `timeout` seconds.
public func almanac(_ arguments: [String], bus: PrivateBus, environment extra: [String: String] = [:], timeout: Double = 60) async throws -> Tool.Result {
    var environment = bus.environment
    environment["NO_COLOR"] = "1"
    environment.merge(extra) { $1 }
    return try await Tool.runDetached(Binaries.almanac, arguments, environment: environment, timeout: timeout)
}
