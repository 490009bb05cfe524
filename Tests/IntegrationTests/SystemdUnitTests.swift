import AlmanacBus
import Foundation
import TestHarness
import Testing

/// The user unit in `systemd/`: valid for systemd, and as sandboxed as a user unit allows.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SystemdUnitTests {
    static var unit: String { SourceTree.path("systemd/almanacd.service") }

    /// A home with `~/.local/bin/almanacd` (what `ExecStart` names) and a private runtime
    /// folder: `systemd-analyze --user` needs `XDG_RUNTIME_DIR` even offline.
    private static func withHome<T>(_ body: ([String: String]) async throws -> T) async throws -> T {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-home-\(UUID().uuidString.prefix(8))")
        let runtime = home.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".local/bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createSymbolicLink(atPath: home.appendingPathComponent(".local/bin/almanacd").path, withDestinationPath: Binaries.almanacd)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        return try await body(environment)
    }

    @Test func theUserUnitPassesSystemdAnalyzeVerify() async throws {
        let result = try await Self.withHome { environment in
            try await Tool.runDetached("systemd-analyze", ["verify", "--user", Self.unit], environment: environment)
        }
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        let unit = try String(contentsOfFile: Self.unit, encoding: .utf8)
        for line in ["Type=dbus", "BusName=\(BusContract.serviceName)", "Restart=on-failure"] { #expect(unit.contains(line)) }
    }

    @Test func theUserUnitsExposureIsAtMostThree() async throws {
        let result = try await Self.withHome { environment in
            try await Tool.runDetached("systemd-analyze", ["security", "--user", "--offline=yes", Self.unit], environment: environment)
        }
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        // "→ Overall exposure level for almanacd.service: 1.6 OK 🙂"
        let line = result.output.split(separator: "\n").first { $0.contains("Overall exposure level") }
        let exposure = line.flatMap { $0.split(separator: ":").last?.split(separator: " ").first }.flatMap { Double($0) }
        #expect(exposure != nil, "no exposure level in:\n\(result.output)")
        #expect((exposure ?? 10) <= 3.0, "\(result.output)")
    }

    @Test func theDaemonWritesOnlyWhereTheUnitLetsItWrite() throws {
        let unit = try String(contentsOfFile: Self.unit, encoding: .utf8)
        // ProtectSystem=strict makes everything else read-only: the daemon's default folders
        // ($XDG_STATE_HOME/almanac, $XDG_DATA_HOME/almanac) must be the writable ones, and made first.
        #expect(unit.contains("ProtectSystem=strict"))
        #expect(unit.contains("ReadWritePaths=%h/.local/state/almanac %h/.local/share/almanac"))
        #expect(unit.contains("ExecStartPre=+mkdir -p %h/.local/state/almanac %h/.local/share/almanac"))
    }
}
