import Foundation
import TestHarness
import Testing

/// `almanac episodes` on a terminal: the daemon's view paged with `LoadMore`, in tmux, read
/// back from the screen.
@Suite(.onTestThreads, .timeLimit(.hang)) struct InteractiveEpisodesTests {
    /// A feed of `count` items, "Item 1" the oldest, an hour apart.
    static func feed(items count: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let start = Date(timeIntervalSince1970: 1_780_000_000)
        let items = (1...count).reversed().map { n in
            "<item><title>Item \(n)</title><guid>item-\(n)</guid><pubDate>\(formatter.string(from: start.addingTimeInterval(Double(n) * 3600)))</pubDate></item>"
        }
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Long Show</title>\n" + items.joined(separator: "\n") + "\n</channel></rss>\n"
    }

    @Test func theListPagesLoadsMoreOnAKeyFollowsPlayMarksAndQuitsCleanly() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-list-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.feed(items: 60).write(to: folder.appendingPathComponent("long.xml"), atomically: true, encoding: .utf8)
        let server = try FixtureServer.feeds(serving: folder)
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { _ = daemon.stop() }
        let subscribed = try await almanac(["podcasts", "subscribe", server.baseURL.absoluteString + "/feeds/long.xml"], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        let listed = try await almanac(["episodes", "--all", "--format", "{{id}}|{{title}}"], bus: bus).output
        let ids = Dictionary(listed.split(separator: "\n").map { line in
            let parts = line.split(separator: "|").map(String.init)
            return (parts[1], parts[0])
        }, uniquingKeysWith: { first, _ in first })
        #expect(ids.count == 60, "\(listed)")

        let raw = folder.appendingPathComponent("raw")
        let screen = try await TerminalLayoutTests.Screen(
            width: 80, height: 20,
            script: "echo before; env TERM=xterm-256color DBUS_SESSION_BUS_ADDRESS='\(bus.address)' \(Binaries.almanac) episodes", raw: raw)
        defer { screen.kill() }
        func until(_ what: String, _ test: @escaping @Sendable ([String]) -> Bool) async throws -> [String] {
            let lines = try await eventually { () -> [String]? in
                let lines = try await screen.capture()
                return test(lines) ? lines : nil
            }
            if let lines { return lines }
            let now = try await screen.capture()
            Issue.record("\(what):\n\(now.joined(separator: "\n"))")
            return now
        }

        // The first page at once, the newest first, on the alternate screen.
        var lines = try await until("the first page") { $0.first?.contains("50 episodes, more to load") == true }
        #expect(lines.count >= 3 && lines[1].hasPrefix("›") && lines[1].contains("Item 60"), "\(lines)")
        #expect(!lines.contains("before"), "the list is on the alternate screen")
        #expect(lines.last?.contains("q quit") == true)
        // The "Loading…" row was drawn while the first page came (tmux writes what it saw
        // to the raw file through a pipe of its own: read until it has caught up).
        let drawn = await eventually { () -> String? in
            let text = String(decoding: (try? Data(contentsOf: raw)) ?? Data(), as: UTF8.self)
            return text.contains("Loading…") ? text : nil
        }
        #expect(drawn != nil, "\(String(decoding: (try? Data(contentsOf: raw)) ?? Data(), as: UTF8.self).debugDescription.prefix(400))")

        // End: the last row, and past it the next page.
        _ = try await Tool.runDetached("tmux", ["-L", screen.session, "send-keys", "-t", screen.session, "G"])
        lines = try await until("the second page") { $0.first?.contains("60 episodes") == true && $0.first?.contains("more") == false }
        #expect(!lines.joined().contains("Loading…"), "\(lines)")
        _ = try await Tool.runDetached("tmux", ["-L", screen.session, "send-keys", "-t", screen.session, "G"])
        lines = try await until("the oldest episode selected") { $0.contains { $0.hasPrefix("›") && $0.contains("Item 1 ") } }

        // Another client marks it played: its row flips.
        let oldest = try #require(ids["Item 1"])
        #expect(try await almanac(["episode", "played", oldest], bus: bus).status == 0)
        lines = try await until("the played mark") { $0.contains { $0.hasPrefix("›✓") && $0.contains("Item 1 ") } }
        // And back, with the key.
        _ = try await Tool.runDetached("tmux", ["-L", screen.session, "send-keys", "-t", screen.session, "u"])
        lines = try await until("the unplayed mark") { $0.contains { $0.hasPrefix("› ") && $0.contains("Item 1 ") } }
        #expect(try await almanac(["episodes", "--all", "--format", "{{title}}|{{progress}}"], bus: bus).output.contains("Item 1|"))

        // q: the shell's screen again, and the command ended well.
        _ = try await Tool.runDetached("tmux", ["-L", screen.session, "send-keys", "-t", screen.session, "q"])
        lines = try await screen.finished()
        #expect(lines.contains("before") && lines.contains("exit 0"), "\(lines)")
        #expect(!lines.contains { $0.contains("episodes, ") }, "\(lines)")
        // Standard input and output no terminal: the plain page, as before.
        let plain = try await almanac(["episodes", "--format", "{{title}}"], bus: bus)
        #expect(plain.status == 0 && plain.output.hasPrefix("Item 60\nItem 59\n"), "\(plain.output)")
    }
}
