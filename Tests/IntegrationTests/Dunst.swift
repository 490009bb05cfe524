import DBus
import Foundation
import TestHarness

/// dunst, a notification server as desktops run it (Debian's 1.9), on a private bus and an
/// X server of its own (Xvfb): what it shows is read back with `dunstctl history`, its
/// `message` being the Pango markup it displayed.
final class Dunst: Sendable {
    static var isInstalled: Bool { ["/usr/bin/dunst", "/usr/bin/dunstctl", "/usr/bin/Xvfb"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) } }

    private let display: Tool.Background
    private let server: Tool.Background
    private let environment: [String: String]

    /// Starts Xvfb on a free display and dunst on `bus`, and waits until dunst owns
    /// `org.freedesktop.Notifications`.
    init(bus: PrivateBus) async throws {
        let xvfb = try Tool.Background("/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"])
        display = xvfb
        guard await eventually(timeout: .seconds(60), { Int(xvfb.output.trimmingCharacters(in: .whitespacesAndNewlines)) != nil }),
              let number = Int(xvfb.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError(message: "Xvfb did not say its display: \(xvfb.output)")
        }
        environment = bus.environment.merging(["DISPLAY": ":\(number)"]) { $1 }
        // No configuration file: dunst's own defaults (markup read in the body).
        server = try Tool.Background("/usr/bin/dunst", ["-config", "/nonexistent"], environment: environment)
        let watcher = try await Connection.connect(to: bus.address)
        let owned = try await eventually { try await watcher.nameOwner(of: BusName("org.freedesktop.Notifications")) != nil }
        await watcher.close()
        guard owned else { throw HarnessError(message: "dunst did not take its name") }
    }

    /// The notifications dunst has shown and closed, newest first, as `dunstctl history`
    /// gives them: each field's value (`summary`, `body`, `message`…). Shown ones are closed first.
    func history() async throws -> [[String: String]] {
        _ = try await Tool.runDetached("/usr/bin/dunstctl", ["close-all"], environment: environment)
        let result = try await Tool.runDetached("/usr/bin/dunstctl", ["history"], environment: environment)
        guard let object = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any],
              let entries = (object["data"] as? [[[String: Any]]])?.first else { return [] }
        return entries.map { entry in entry.compactMapValues { ($0 as? [String: Any])?["data"].map { "\($0)" } } }
    }

    func stop() {
        server.stop()
        display.stop()
    }
}
