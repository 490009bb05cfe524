@testable import AlmanacBus
import DBus
import Foundation
import TestHarness
import Testing

/// `PlayerInbox`: what media players say waits in a queue per player, bounded, filled on the
/// connection's thread; and `MPRISListener.changes(in:)`, which coalesces a player's repeats.
/// Real signals from a real connection on a private bus, read by `onSignals` as the listener
/// reads them.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PlayerInboxTests {
    let bus: PrivateBus
    let inbox = PlayerInbox()

    init() throws {
        bus = try PrivateBus()
    }

    /// A player on the bus whose signals go to `inbox`, as the listener hears them; `heard`
    /// is false for a sender that never took a player's name.
    func player(heard: Bool = true) async throws -> (connection: Connection, owner: BusName, receiver: Connection, watch: SignalWatch) {
        let receiver = try await Connection.connect(to: bus.address)
        let connection = try await Connection.connect(to: bus.address)
        let owner = try #require(connection.uniqueName)
        if heard {
            inbox.appeared(owner)
            // The worker took `.appeared`; nothing is taken from now on.
            _ = inbox.take(owner)
        }
        let inbox = self.inbox
        let watch = try await receiver.onSignals(matching: MatchRule(sender: owner, path: MPRISListener.path)) { inbox.deliver($0) }
        return (connection, owner, receiver, watch)
    }

    func changed(_ connection: Connection, _ values: [(String, Value)]) throws {
        try connection.emitPropertiesChanged(path: MPRISListener.path, interface: MPRISListener.playerInterface, values: values)
    }

    /// Answered after everything `owner` sent before: the receiver has read all of it.
    func caughtUp(_ receiver: Connection, with owner: BusName) async throws {
        _ = try await receiver.call(owner, path: "/", interface: .peer, method: "Ping") { _ in }
    }

    @Test func aFloodingPlayersQueueKeepsItsNewestSignalsWithinItsBounds() async throws {
        let (connection, owner, receiver, watch) = try await player()
        let junk = Value.string(String(repeating: "x", count: 100_000))
        for index in 0..<40 {
            try changed(connection, [("PlaybackStatus", .string("Paused")), ("Index", .int32(Int32(index))), ("Junk", junk)])
        }
        try await caughtUp(receiver, with: owner)
        let batch = try #require(inbox.take(owner))
        let sizes = batch.events.compactMap { if case .signal(let message) = $0 { message.wireSize } else { nil } }
        #expect(!sizes.isEmpty && sizes.count <= PlayerInbox.signalLimit, "\(sizes.count) signals kept")
        #expect(sizes.reduce(0, +) <= PlayerInbox.byteLimit)
        #expect(batch.dropped, "the worker reads the player afresh")
        // The newest were kept, and they come as one change.
        let changes = MPRISListener.changes(in: batch.events)
        guard changes.count == 1, case .properties(let last) = changes[0] else {
            Issue.record("\(changes.count) changes")
            return
        }
        #expect(last["Index"] == .int32(39))
        watch.cancel()
        await connection.close()
        await receiver.close()
    }

    @Test func aSignalOverTheBoundIsNotKeptAndTheSignalsOfNoPlayerNever() async throws {
        let (connection, owner, receiver, watch) = try await player()
        try changed(connection, [("Junk", .string(String(repeating: "x", count: 2 << 20)))])
        try await caughtUp(receiver, with: owner)
        let batch = try #require(inbox.take(owner))
        #expect(batch.events.isEmpty && batch.dropped)

        let (stranger, strangerName, strangerReceiver, strangerWatch) = try await player(heard: false)
        try changed(stranger, [("PlaybackStatus", .string("Paused"))])
        try await caughtUp(strangerReceiver, with: strangerName)
        #expect(inbox.take(strangerName) == nil)
        for (watch, connections) in [(watch, [connection, receiver]), (strangerWatch, [stranger, strangerReceiver])] {
            watch.cancel()
            for each in connections { await each.close() }
        }
    }

    /// Ten players that each fill their own queue: what waits over all of them stays within
    /// the bound for all.
    @Test func whatWaitsOverAllPlayersIsBoundedToo() async throws {
        var players: [(Connection, BusName, Connection, SignalWatch)] = []
        for _ in 0..<10 { players.append(try await player()) }
        let junk = Value.string(String(repeating: "x", count: 200_000))
        for (connection, _, _, _) in players {
            for _ in 0..<6 { try changed(connection, [("Junk", junk)]) }
        }
        var total = 0
        for (_, owner, receiver, _) in players {
            try await caughtUp(receiver, with: owner)
        }
        for (_, owner, _, _) in players {
            let events = inbox.take(owner)?.events ?? []
            total += events.reduce(0) { sum, event in if case .signal(let message) = event { sum + message.wireSize } else { sum } }
        }
        #expect(total > 0 && total <= PlayerInbox.totalByteLimit, "\(total) bytes")
        for (connection, _, receiver, watch) in players {
            watch.cancel()
            await connection.close()
            await receiver.close()
        }
    }

    /// A player keeping quiet (it did not answer): its signals are dropped, until it is asked again.
    @Test func aQuietPlayersSignalsAreDroppedUntilItIsAskedAgain() async throws {
        let (connection, owner, receiver, watch) = try await player()
        #expect(inbox.silent(owner) == PlayerInbox.firstQuiet)
        try changed(connection, [("PlaybackStatus", .string("Paused"))])
        try await caughtUp(receiver, with: owner)
        #expect(inbox.take(owner) == nil)
        #expect(inbox.isQuiet(owner))

        inbox.again(owner)
        try changed(connection, [("PlaybackStatus", .string("Playing"))])
        try await caughtUp(receiver, with: owner)
        let events = try #require(inbox.take(owner)).events
        #expect(events.count == 2, "\(events)")
        if case .again = events.first {} else { Issue.record("\(events)") }
        // Silent again in a row: it is left alone twice as long.
        #expect(inbox.silent(owner) == PlayerInbox.firstQuiet * 2)
        watch.cancel()
        await connection.close()
        await receiver.close()
    }

    /// Only a change that a later one says again in full, with nothing between them, is left out.
    @Test func repeatsAreCoalescedAndDistinctChangesKept() async throws {
        let (connection, owner, receiver, watch) = try await player()
        try changed(connection, [("Metadata", .dictionary(key: .string, value: .variant, [.init(.string("xesam:url"), .variant(.string("a")))]))])
        try changed(connection, [("PlaybackStatus", .string("Playing"))])
        try changed(connection, [("PlaybackStatus", .string("Paused")), ("Rate", .double(1.5))])
        try connection.emit(path: MPRISListener.path, interface: MPRISListener.playerInterface, signal: MPRISListener.seeked, arguments: Int64(5_000_000))
        try changed(connection, [("PlaybackStatus", .string("Playing"))])
        try await caughtUp(receiver, with: owner)
        let changes = MPRISListener.changes(in: try #require(inbox.take(owner)).events)
        let shown: [String] = changes.map {
            switch $0 {
            case .properties(let values): values.keys.sorted().joined(separator: "+")
            case .seeked(let microseconds): "seeked \(microseconds)"
            default: "other"
            }
        }
        #expect(shown == ["Metadata", "PlaybackStatus+Rate", "seeked 5000000", "PlaybackStatus"])
        watch.cancel()
        await connection.close()
        await receiver.close()
    }
}
