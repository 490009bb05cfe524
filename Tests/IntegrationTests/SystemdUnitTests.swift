import AlmanacWire
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

    @Test func theUserUnitsExposureIsAtMostOnePointSix() async throws {
        let result = try await Self.withHome { environment in
            try await Tool.runDetached("systemd-analyze", ["security", "--user", "--offline=yes", Self.unit], environment: environment)
        }
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        // "→ Overall exposure level for almanacd.service: 1.6 OK 🙂"
        let line = result.output.split(separator: "\n").first { $0.contains("Overall exposure level") }
        let exposure = line.flatMap { $0.split(separator: ":").last?.split(separator: " ").first }.flatMap { Double($0) }
        #expect(exposure != nil, "no exposure level in:\n\(result.output)")
        #expect((exposure ?? 10) <= 1.6, "\(result.output)")
    }

    /// The unit's lines, `Key=value`, in order (comments and sections left out).
    static func settings() throws -> [(key: String, value: String)] {
        try String(contentsOfFile: unit, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }
    }

    /// ProtectSystem=strict and ProtectHome=tmpfs leave nothing writable but what the unit
    /// binds: the folders it passes the daemon must be exactly those, made first, 0700.
    @Test func theFoldersTheDaemonIsGivenAreTheOnesTheUnitOpensAndMakesPrivate() throws {
        let settings = try Self.settings()
        func values(_ key: String) -> [String] { settings.filter { $0.key == key }.map(\.value) }
        #expect(values("ProtectSystem") == ["strict"])
        #expect(values("ProtectHome") == ["tmpfs"])
        #expect(values("ReadWritePaths").isEmpty)
        let start = try #require(values("ExecStart").first).split(separator: " ").map(String.init)
        let given = start.compactMap { argument -> String? in
            for option in ["--state-dir=", "--data-dir="] where argument.hasPrefix(option) { return String(argument.dropFirst(option.count)) }
            return nil
        }
        #expect(given.count == 2, "both folders given explicitly: \(start)")
        let bound = values("BindPaths").flatMap { $0.split(separator: " ").map(String.init) }
        #expect(Set(bound) == Set(given), "writable: \(bound); given: \(given)")
        #expect(values("ExecStartPre") == ["+install -d -m 0700 " + given.joined(separator: " ")])
        // The binary itself, and the session bus, are visible in the empty /home and /run/user.
        let readOnly = values("BindReadOnlyPaths").flatMap { $0.split(separator: " ").map(String.init) }
        #expect(readOnly.contains(start[0]) && readOnly.contains("%t/bus"), "\(readOnly)")
        #expect(values("MemoryMax").count == 1 && values("TasksMax").count == 1)
    }

    /// The daemon run as the unit runs it, in a home whose XDG variables point elsewhere:
    /// it writes where the unit lets it, and says at start that the XDG folders are not used.
    @Test func theDaemonRunAsTheUnitSaysWritesWhereTheUnitAllowsWhateverXDGSays() async throws {
        let settings = try Self.settings()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-home-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        func expand(_ text: String) -> String { text.replacingOccurrences(of: "%h", with: home.path) }
        let pre = try #require(settings.first { $0.key == "ExecStartPre" }?.value.dropFirst()).split(separator: " ").map { expand(String($0)) }
        let made = try await Tool.runDetached(pre[0], Array(pre.dropFirst()))
        try #require(made.status == 0, "\(made.errorOutput)")
        let arguments = try #require(settings.first { $0.key == "ExecStart" }?.value).split(separator: " ").dropFirst().map { expand(String($0)) }
        let bus = try PrivateBus()
        let elsewhere = home.appendingPathComponent("custom")
        let daemon = try ChildProcess(URL(fileURLWithPath: Binaries.almanacd), arguments + ["--address", bus.address] + DaemonPreset.offline.arguments,
                                      environment: ["HOME": home.path, "XDG_STATE_HOME": elsewhere.appendingPathComponent("state").path,
                                                    "XDG_DATA_HOME": elsewhere.appendingPathComponent("data").path],
                                      errorsTo: home.appendingPathComponent("log").path)
        defer { daemon.send(SIGTERM); daemon.wait() }
        let state = home.appendingPathComponent(".local/state/almanac")
        #expect(await eventually { FileManager.default.fileExists(atPath: state.appendingPathComponent("almanac.sqlite").path) })
        #expect(!FileManager.default.fileExists(atPath: elsewhere.path), "nothing written where XDG points")
        for folder in [state, home.appendingPathComponent(".local/share/almanac")] {
            let mode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
            #expect(mode == 0o700, "\(folder.path): \(String(mode ?? 0, radix: 8))")
        }
        let log = { (try? String(contentsOf: home.appendingPathComponent("log"), encoding: .utf8)) ?? "" }
        let noted = ["folder": "state", "path": state.path, "option": "--state-dir", "xdg": elsewhere.path + "/state/almanac"]
        #expect(await eventually {
            log().split(separator: "\n").compactMap(LogLine.init).contains { line in
                line.message == "a folder is not where the XDG base directories point" && noted.allSatisfy { line.metadata[$0.key] == $0.value }
            }
        }, "\(log())")
    }
}
