import DBus
import Foundation
import TestHarness

/// A notification daemon nobody on the team wrote: python-dbusmock's `notification_daemon`
/// template on the private bus, which answers `Notify` with ids and logs every call it gets,
/// a line each ("1795849119.478 Notify "Almanac" 0 "dialog-warning" "summary" "body" …").
final class DbusmockNotificationDaemon: Sendable {
    private let process: Tool.Background

    /// Starts it on `bus` and waits until it owns `org.freedesktop.Notifications`;
    /// `capabilities` replace the template's own (which include `body-markup`).
    init(bus: PrivateBus, capabilities: [String]? = nil) async throws {
        let parameters = try capabilities.map { String(decoding: try JSONSerialization.data(withJSONObject: ["capabilities": $0.joined(separator: " ")]), as: UTF8.self) }
        process = try Tool.Background("/usr/bin/python3", ["-m", "dbusmock", "--template", "notification_daemon"] + (parameters.map { ["--parameters", $0] } ?? []),
                                      environment: bus.environment)
        let watcher = try await Connection.connect(to: bus.address)
        let owned = try await eventually { try await watcher.nameOwner(of: BusName("org.freedesktop.Notifications")) != nil }
        await watcher.close()
        guard owned else { throw HarnessError(message: "dbusmock's notification daemon did not take its name: \(process.output)") }
    }

    /// The logged calls of `method` (`Notify`, `CloseNotification`), in order.
    func calls(_ method: String) -> [String] {
        process.output.split(separator: "\n").map(String.init).filter { $0.split(separator: " ").dropFirst().first == Substring(method) }
    }

    /// Waits until `method` was called at least `count` times; its calls then.
    func waitForCalls(_ method: String, count: Int = 1) async -> [String] {
        _ = await eventually { calls(method).count >= count }
        return calls(method)
    }

    func stop() { process.stop() }
}
