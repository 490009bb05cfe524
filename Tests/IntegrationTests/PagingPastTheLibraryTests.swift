import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// A list of one podcast goes on past what the library holds, into its feed's older pages
/// (RFC 5005 `atom:link rel="next"`), with the real binaries: on the bus (`LoadMore`, one
/// load at a time, `Loading` while the page is read) and in `almanac episodes` on a terminal
/// (the "Loading…" row while the server holds the page back).
@Suite(.onTestThreads, .timeLimit(.hang)) struct PagingPastTheLibraryTests {
    let folder: URL
    let server: FixtureServer
    let bus: PrivateBus

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-paged-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try FixtureServer.feeds(serving: folder)
        bus = try PrivateBus()
        // Episodes 8…6 in the feed; 5…3 on its second page (held back by the server's gate
        // while a test wants); 2…1 on the third, the last.
        try Self.page(6...8, next: "/gated/page2.xml").write(to: folder.appendingPathComponent("show.xml"), atomically: true, encoding: .utf8)
        try Self.page(3...5, next: "/feeds/page3.xml").write(to: folder.appendingPathComponent("page2.xml"), atomically: true, encoding: .utf8)
        try Self.page(1...2, next: nil).write(to: folder.appendingPathComponent("page3.xml"), atomically: true, encoding: .utf8)
    }

    /// A feed document with these episodes, newest first, and a link to its next page.
    static func page(_ numbers: ClosedRange<Int>, next: String?) -> String {
        let items = numbers.reversed().map { n in
            "<item><title>Episode \(n)</title><guid>ep-\(n)</guid><pubDate>Sun, \(String(format: "%02d", n)) Nov 2026 06:00:00 GMT</pubDate></item>"
        }
        let link = next.map { "<atom:link rel=\"next\" href=\"\($0)\"/>" } ?? ""
        return "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\"><channel><title>Paged Show</title>\(link)\n"
            + items.joined(separator: "\n") + "\n</channel></rss>\n"
    }

    func gate(_ state: String) throws {
        _ = try String(contentsOf: URL(string: server.baseURL.absoluteString + "/gate/" + state)!, encoding: .utf8)
    }

    func feedLog() throws -> [String] {
        try String(contentsOf: URL(string: server.baseURL.absoluteString + "/feed-log")!, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// A view removed, or given other options, while its page is read from the feed: when
    /// the read ends, `Loading` goes back to false (the load is counted to its end).
    @Test(arguments: ["RemoveView", "SetOptions"]) func aViewLetGoDuringALoadLeavesLoadingFalse(removal: String) async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let client = try await AlmanacClient.connect(address: bus.address)
        let id = try await client.subscribe(server.baseURL.absoluteString + "/feeds/show.xml")
        func loading() async throws -> Bool { try await client.property(BusContract.Document1.loading, of: .podcasts) == true }
        let view = try await client.addView(.podcasts, options: ["podcast": .string(id)])
        func load() async throws -> Bool {
            try await client.loadMore(view)
        }
        // The library's page, then the feed's second, held back by the server.
        try gate("close")
        #expect(try await load())
        #expect(try await eventually { try await load() })
        #expect(try await eventually { try await loading() })
        if removal == "RemoveView" {
            try await client.removeView(.podcasts, view)
        } else {
            _ = try await client.connection.call(BusContract.serviceName, path: view, interface: BusContract.viewInterface, method: BusContract.View1.setOptions.name) {
                try [String: Value]().encode(to: &$0)
            }
        }
        try gate("open")
        #expect(try await eventually { try await !loading() })
        await client.connection.close()
        _ = daemon.stop()
    }

    @Test func loadMoreReadsTheFeedsOlderPagesOneAtATimeAndTheyStay() async throws {
        var daemon = try await RunningDaemon(bus: bus, .fixtures())
        let client = try await AlmanacClient.connect(address: bus.address)
        let id = try await client.subscribe(server.baseURL.absoluteString + "/feeds/show.xml")
        let updates = try await client.connection.signals(matching: BusContract.View1.updated.rule())
        let properties = try await client.propertyChanges(of: .podcasts)
        let view = try await client.addView(.podcasts, options: ["podcast": .string(id)])
        func load(_ method: BusMethod<Args<>, Args<Bool>>) async throws -> Bool {
            try await client.connection.call(method, on: BusContract.serviceName, path: view, ())
        }
        var events = updates.compactMap { message -> [String: Value]? in
            guard message.path == view, let (_, data) = try? message.arguments(UInt64.self, [String: Value].self) else { return nil }
            return data
        }.makeAsyncIterator()
        func next(_ kind: String) async throws -> [String: Value] {
            while let data = await events.next() {
                if data["kind"]?.stringValue == kind { return data }
                if kind == "page", data["kind"]?.stringValue == "loadFailed" { Issue.record("\(data)") }
            }
            throw HarnessError(message: "the updates ended before a \(kind)")
        }
        func titles(_ page: [String: Value]) -> [String] {
            guard case .array(_, let items)? = page["items"] else { return [] }
            return items.compactMap { $0.stringKeyedEntries?["title"]?.stringValue }
        }

        // The library's own page: the three the feed lists, and more to come from its archive.
        #expect(try await load(BusContract.View1.loadMore))
        var page = try await next("page")
        #expect(titles(page) == ["Episode 8", "Episode 7", "Episode 6"] && page["hasMore"] == .boolean(true), "\(page)")

        // The second page is held back by the server: the view hears "loading" and the
        // document is Loading; a second load, or a refresh, is refused meanwhile.
        try gate("close")
        async let started = load(BusContract.View1.loadMore)
        _ = try await next("loading")
        #expect(try await load(BusContract.View1.loadMore) == false, "one load at a time")
        #expect(try await load(BusContract.View1.refreshList) == false, "a refresh waits for the load")
        let loading = try await busctlGetProperty(on: bus, BusContract.documentPath(.podcasts), BusContract.Document1.loading)
        #expect(loading.output == "b true\n", "\(loading.output)")
        // Answered as it started, while the server still holds the page back.
        #expect(try await started)
        try gate("open")
        page = try await next("page")
        #expect(titles(page) == ["Episode 5", "Episode 4", "Episode 3"] && page["hasMore"] == .boolean(true), "\(page)")
        #expect(try await load(BusContract.View1.loadMore))
        page = try await next("page")
        #expect(titles(page) == ["Episode 2", "Episode 1"] && page["hasMore"] == .boolean(false), "\(page)")
        #expect(try await load(BusContract.View1.loadMore) == false, "the feed's end")
        // Loading went back to false after the page came.
        var loadingValues: [Bool] = []
        for await message in properties {
            guard let (_, changed, _) = try? message.arguments(String.self, [String: Value].self, [String].self),
                  case .boolean(let value)? = changed["Loading"] else { continue }
            loadingValues.append(value)
            if !value, loadingValues.count >= 2 { break }
        }
        #expect(loadingValues.first == true && loadingValues.last == false, "\(loadingValues)")
        #expect(try feedLog().filter { $0.hasPrefix("gated/page2.xml") || $0.hasPrefix("page3.xml") }.count == 2, "each page read once")
        await client.connection.close()

        // The older episodes are the library's now, not new: they outlive a restart, and the
        // feed's archive is not read again, though the feed still announces it.
        _ = daemon.stop()
        daemon = try await RunningDaemon(bus: bus, .fixtures())
        let listed = try await almanac(["episodes", id, "--all", "--format", "{{title}}|{{progress}}"], bus: bus)
        #expect(listed.output == (1...8).reversed().map { "Episode \($0)|\($0 == 8 ? "new" : "")" }.joined(separator: "\n") + "\n", "\(listed.output)")
        #expect(try await almanac(["podcasts", "refresh", id], bus: bus).status == 0)
        let again = try await AlmanacClient.connect(address: bus.address)
        let second = try await again.addView(.podcasts, options: ["podcast": .string(id)])
        let secondUpdates = try await again.connection.signals(matching: BusContract.View1.updated.rule())
        #expect(try await again.loadMore(second))
        for await message in secondUpdates where message.path == second {
            guard let (_, data) = try? message.arguments(UInt64.self, [String: Value].self), data["kind"]?.stringValue == "page" else { continue }
            #expect(titles(data).count == 8 && data["hasMore"] == .boolean(false), "\(data)")
            break
        }
        #expect(try feedLog().filter { $0.hasPrefix("gated/") || $0.hasPrefix("page3") }.count == 2, "no page read twice")
        await again.connection.close()
        _ = daemon.stop()
    }

    @Test func theTerminalListShowsItsLoadingRowWhileAnOlderPageIsRead() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { _ = daemon.stop() }
        let subscribed = try await almanac(["podcasts", "subscribe", server.baseURL.absoluteString + "/feeds/show.xml"], bus: bus)
        let id = try #require(subscribed.output.split(separator: " ").first.map(String.init), "\(subscribed.errorOutput)")
        let screen = try await TerminalLayoutTests.Screen(
            width: 80, height: 20,
            script: "env TERM=xterm-256color DBUS_SESSION_BUS_ADDRESS='\(bus.address)' \(Binaries.almanac) episodes \(id)")
        defer { screen.kill() }
        func until(_ what: String, _ test: @escaping @Sendable ([String]) -> Bool) async throws -> [String] {
            if let lines = try await eventually({ () -> [String]? in
                let lines = try await screen.capture()
                return test(lines) ? lines : nil
            }) { return lines }
            let now = try await screen.capture()
            Issue.record("\(what):\n\(now.joined(separator: "\n"))")
            return now
        }
        func key(_ key: String) async throws {
            _ = try await Tool.runDetached("tmux", ["-L", screen.session, "send-keys", "-t", screen.session, key])
        }
        _ = try await until("the library's page") { $0.first?.contains("3 episodes, more to load") == true }
        try gate("close")
        // Past the end: the feed's next page is asked for, and the row says so until it comes.
        try await key("G")
        try await key("G")
        var lines = try await until("the loading row") { $0.contains { $0.contains("Loading…") } }
        #expect(!lines.joined().contains("Episode 5"), "\(lines)")
        try gate("open")
        lines = try await until("the older page") { $0.contains { $0.contains("Episode 5") } && $0.first?.contains("6 episodes, more to load") == true }
        #expect(!lines.joined().contains("Loading…"), "\(lines)")
        try await key("G")
        try await key("G")
        lines = try await until("the feed's end") { $0.first?.contains("8 episodes") == true && $0.first?.contains("more") == false }
        #expect(lines.contains { $0.contains("Episode 1 ") }, "\(lines)")
        try await key("q")
        lines = try await screen.finished()
        #expect(lines.contains("exit 0"), "\(lines)")
    }
}
