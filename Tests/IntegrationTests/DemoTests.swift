import Foundation
import TestHarness
import Testing

/// `make demo` as a newcomer meets it: in a terminal 80 columns wide, under make, two views
/// render the third client's change, and Ctrl-C brings back a clean prompt — make exits 0
/// and nothing the demo started is left.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DemoTests {
    /// The processes started with `TMPDIR=folder` (what the demo started, and what they
    /// started in turn), by pid, with their command lines.
    static func processes(underTemporary folder: String) -> [String: String] {
        var found: [String: String] = [:]
        let marker = Array("TMPDIR=\(folder)".utf8) + [0]
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(pid) != nil {
            guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                  environment.split(separator: 0, omittingEmptySubsequences: true).contains(where: { Array($0) + [0] == marker }),
                  let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { continue }
            found[pid] = String(decoding: command.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
        }
        return found
    }

    @Test func ctrlCEndsTheDemoCleanlyAfterBothViewsRenderedTheClientsChange() async throws {
        // Its own temporary folder (the demo's folders go there, so what is left shows) and
        // its own tmux server (started with this environment, killed at the end).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-demo-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let temporary = folder.appendingPathComponent("tmp").path
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        // Under make, as `make demo` runs it (without its build and package steps).
        let makefile = folder.appendingPathComponent("demo.mk").path
        try "demo:\n\tscripts/demo.sh\n".write(toFile: makefile, atomically: true, encoding: .utf8)
        let server = "almanac-demo-\(UUID().uuidString.prefix(8))"
        func tmux(_ arguments: [String]) async throws -> Tool.Result { try await Tool.runDetached("tmux", ["-L", server] + arguments) }
        defer { _ = try? Tool.run("tmux", ["-L", server, "kill-server"]) }

        // No session bus: the demo starts a private one.
        let command = "cd '\(SourceTree.root.path)' && env -u DBUS_SESSION_BUS_ADDRESS TMPDIR='\(temporary)' DEMO_BIN='\(Binaries.folder.path)' "
            + "DEMO_CLIENT_EVERY=2 make -s -f '\(makefile)' demo; echo \"exit=$?\"; sleep 600"
        let started = try await tmux(["new-session", "-d", "-s", "demo", "-x", "80", "-y", "50", command])
        #expect(started.status == 0, "\(started.errorOutput)")
        func screen() async throws -> String { try await tmux(["capture-pane", "-p", "-J", "-t", "demo", "-S", "-2000"]).output }

        // The client's change, then each view rendering it (°F, after the first submit).
        var text = ""
        let rendered = try await eventually(timeout: .seconds(90), every: .milliseconds(200)) {
            text = try await screen()
            guard let submit = text.range(of: "[client] $ almanac settings set units imperial") else { return false }
            let after = text[submit.upperBound...].split(separator: "\n")
            return after.contains { $0.hasPrefix("[view 1] Paris") && $0.contains("°F") }
                && after.contains { $0.hasPrefix("[view 2] Paris") && $0.contains("°F") }
                && after.contains { $0.hasPrefix("[bus] ") && $0.contains("units") }
        }
        #expect(rendered, "screen:\n\(text)")
        let live = text.split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(live.allSatisfy { $0.count <= 78 }, "lines wider than the terminal:\n\(live.filter { $0.count > 78 }.joined(separator: "\n"))")

        // What the demo started: the daemon, the private bus, the monitor.
        let running = Self.processes(underTemporary: temporary).values
        #expect(running.contains { $0.contains("almanacd") }, "\(running)")
        #expect(running.contains { $0.contains("dbus-daemon") }, "\(running)")
        #expect(running.contains { $0.contains("dbus-monitor") }, "\(running)")

        _ = try await tmux(["send-keys", "-t", "demo", "C-c"])
        let ended = try await eventually(timeout: .seconds(60), every: .milliseconds(100)) {
            text = try await screen()
            return text.contains("exit=")
        }
        #expect(ended, "screen:\n\(text)")
        #expect(text.contains("exit=0"), "screen:\n\(text)")
        #expect(text.contains("the views stopped (exit 0 and 0)"), "screen:\n\(text)")
        #expect(Self.processes(underTemporary: temporary).isEmpty, "left running: \(Self.processes(underTemporary: temporary))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "left behind in \(temporary)")
    }

    @Test func demoSecondsEndsTheDemoByItself() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-demo-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        environment["TMPDIR"] = folder.path
        environment["DEMO_BIN"] = Binaries.folder.path
        environment["DEMO_SECONDS"] = "5"
        environment["DEMO_CLIENT_EVERY"] = "2"
        let result = try await Tool.runDetached(SourceTree.path("scripts/demo.sh"), [], environment: environment, timeout: 60)
        #expect(result.status == 0, "\(result.output)\n\(result.errorOutput)")
        #expect(result.output.contains("[client] $ almanac settings set units imperial"))
        #expect(result.output.contains("[view 1] Paris") && result.output.contains("[view 2] Paris"))
        #expect(result.output.contains("the views stopped (exit 0 and 0)"), "\(result.output)")
        #expect(Self.processes(underTemporary: folder.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
