import AlmanacWire
import DBus
import Foundation
import Glibc
import TestHarness
import Testing

/// Flow control of views (docs/bus-api.md, "Flow control"), with the real daemon and clients
/// nobody on the team wrote: a python-dbus client that stops reading its socket costs the
/// bus no more than its views' windows and catches up with one resync each; one that reads
/// but never acknowledges is not starved; `almanac watch` acknowledges as it renders.
@Suite(.onTestThreads, .timeLimit(.hang)) struct FlowControlTests {
    let bus: PrivateBus

    init() throws {
        bus = try PrivateBus()
    }

    struct Status: Decodable {
        let views: [String: UInt64]
        let updates: Int
        let resyncs: Int
    }

    /// A python-dbus view client of `views` views of the podcasts document (Tests/Fixtures/view_client.py).
    func viewClient(views: Int, status: URL) async throws -> Tool.Background {
        let client = try Tool.Background("/usr/bin/python3", [SourceTree.path("Tests/Fixtures/view_client.py"), bus.address, "podcasts", "\(views)", status.path])
        #expect(await client.waitFor("ready"), "\(client.output)")
        return client
    }

    func status(_ file: URL) throws -> Status {
        try JSONDecoder().decode(Status.self, from: Data(contentsOf: file))
    }

    /// `count` play-state changes, sixteen in flight at a time; the revision after the last.
    func changes(_ count: Int, on client: AlmanacClient) async throws -> UInt64 {
        try await withThrowingTaskGroup(of: UInt64.self) { group in
            var newest: UInt64 = 0
            for number in 1...count {
                if number > 16, let revision = try await group.next() { newest = max(newest, revision) }
                group.addTask { try await client.submit(.podcasts, ["episode": .string("demo-swift-1"), "position": .double(Double(number))]) }
            }
            for try await revision in group { newest = max(newest, revision) }
            return newest
        }
    }

    /// What the bus holds for a connection, from dbus-daemon's own statistics.
    func queuedMessages(for name: String, on connection: Connection) async throws -> Int {
        let reply = try await connection.call(.bus, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus.Debug.Stats",
                                              method: "GetConnectionStats", arguments: name)
        let (stats) = try reply.arguments([String: Value].self)
        guard case .uint32(let queued)? = stats["OutgoingMessages"]?.unwrapped else { throw HarnessError(message: "no OutgoingMessages in \(stats)") }
        return Int(queued)
    }

    @Test func aClientThatStopsReadingCostsTheBusItsWindowsAndCatchesUpWithOneResyncEach() async throws {
        let daemon = try await RunningDaemon(bus: bus, .offline)
        let status = bus.directory.appendingPathComponent("stalled.json")
        let stalled = try await viewClient(views: 8, status: status)
        let client = try await AlmanacClient.connect(address: bus.address)
        // The client's unique name: the owner of its views.
        let viewPath = try #require(try self.status(status).views.keys.first)
        let owner = try #require(try await busctlGetProperty(on: bus, ObjectPath(viewPath), BusContract.View1.owner).output
            .split(separator: "\"").dropFirst().first.map(String.init))

        kill(stalled.pid, SIGSTOP)
        let final = try await changes(2_000, on: client)
        // Each view had at most its window on the way; the rest was held back, not queued.
        let queued = try await queuedMessages(for: owner, on: client.connection)
        #expect(queued <= 8 * UpdateWindow.size + 8, "the bus holds \(queued) messages for a client that does not read")

        kill(stalled.pid, SIGCONT)
        let caughtUp = try await eventually(timeout: .seconds(60)) { () -> Status? in
            let now = try self.status(status)
            return now.views.values.allSatisfy { $0 >= final } ? now : nil
        }
        let seen = try #require(caughtUp, "\(String(describing: try? self.status(status)))")
        #expect(seen.resyncs == 8, "one resync for each view that fell behind: \(seen)")
        #expect(seen.updates < 8 * (UpdateWindow.size + 2) + 8 * 16, "\(seen.updates) updates instead of 16,000")
        stalled.stop()
        await client.connection.close()
        _ = daemon.stop()
    }

    @Test func aClientThatReadsButNeverAcknowledgesIsNotStarved() async throws {
        let daemon = try await RunningDaemon(bus: bus, .offline)
        let status = bus.directory.appendingPathComponent("reader.json")
        let reader = try await viewClient(views: 4, status: status)
        let client = try await AlmanacClient.connect(address: bus.address)
        let final = try await changes(1_500, on: client)
        // It answers the daemon's pings (libdbus does), so its views keep up, or catch up.
        let current = try await eventually(timeout: .seconds(60)) { () -> Status? in
            let now = try self.status(status)
            return now.views.values.allSatisfy { $0 >= final } ? now : nil
        }
        #expect(current != nil, "\(String(describing: try? self.status(status))), final revision \(final)")
        reader.stop()
        await client.connection.close()
        _ = daemon.stop()
    }

    /// jeepney's blocking connection answers nothing, not even `Peer.Ping`: the daemon reads
    /// the bus's count of what it holds for the client instead, and the client, which
    /// reads, gets to the latest revision.
    @Test func aClientWhoseLibraryAnswersNoPingIsNotStarvedEither() async throws {
        let daemon = try await RunningDaemon(bus: bus, .offline)
        let status = bus.directory.appendingPathComponent("jeepney.json")
        let reader = try Tool.Background("/usr/bin/python3", [SourceTree.path("Tests/Fixtures/jeepney_view_client.py"), bus.address, "120", status.path])
        #expect(await reader.waitFor("ready"), "\(reader.output)")
        let client = try await AlmanacClient.connect(address: bus.address)
        let final = try await changes(600, on: client)
        struct Seen: Decodable { let newest: UInt64; let updates: Int; let resyncs: Int; let pings: Int }
        let seen = await eventually(timeout: .seconds(60)) { () -> Seen? in
            guard let seen = try? JSONDecoder().decode(Seen.self, from: Data(contentsOf: status)) else { return nil }
            return seen.newest >= final ? seen : nil
        }
        #expect(seen != nil, "\(String(describing: try? String(contentsOf: status, encoding: .utf8))), final revision \(final)")
        #expect((seen?.pings ?? 0) > 0, "the daemon probed it")
        reader.stop()
        await client.connection.close()
        _ = daemon.stop()
    }

    @Test func watchAcknowledgesAsItRendersAndHandlesAResync() async throws {
        let daemon = try await RunningDaemon(bus: bus, .offline)
        let watch = try Tool.Background(Binaries.almanac, ["watch", "podcasts", "--json"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(await watch.waitFor("\"revision\""), "\(watch.output)")
        let client = try await AlmanacClient.connect(address: bus.address)
        // Stopped, the watch falls behind; woken, it is resynchronised and shows the latest position.
        kill(watch.pid, SIGSTOP)
        let final = try await changes(300, on: client)
        kill(watch.pid, SIGCONT)
        #expect(await watch.waitFor("\"revision\":\(final)"), "\(watch.output.suffix(2_000))")
        // Awake, it acknowledges what it renders with View1.Ack, as dbus-monitor sees.
        let monitor = try Tool.Background("dbus-monitor", ["--address", bus.address, "type='method_call',interface='\(BusContract.viewInterface)',member='Ack'"])
        try await Task.sleep(for: .milliseconds(300))
        let next = try await changes(200, on: client)
        #expect(await watch.waitFor("\"revision\":\(next)"), "\(watch.output.suffix(2_000))")
        #expect(await monitor.waitFor("member=Ack"), "\(monitor.output.suffix(1_000))")
        monitor.stop()
        watch.stop()
        await client.connection.close()
        _ = daemon.stop()
    }
}
