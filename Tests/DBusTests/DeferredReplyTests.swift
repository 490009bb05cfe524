import DBus
#if canImport(Glibc)
import Glibc
#endif
import Locking
import Synchronization
import TestHarness
import Testing

/// Methods that answer later (`Method.deferred`) and the connection's `afterDispatching` hook
/// that finishes a burst of them: the pair a group commit is built on.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DeferredReplyTests {
    static let path = ObjectPath("/org/almanac/Deferred")
    static let interfaceName = InterfaceName("org.almanac.Deferred1")

    /// What the exported object saw, for the tests to check.
    final class Record: Sendable {
        let held = Locked<[DeferredReply]>([])
        /// Whether each of `Twice`'s three answers was the one sent.
        let twice = Locked<[Bool]>([])
        /// `Block` holds the server's thread until this is set (at most 10 s).
        let release = Atomic<Bool>(false)
        /// The test's own calls under way (counted by the test).
        let started = Locked(0)
    }

    /// Exports `org.almanac.Deferred1`: `Hold` is answered by the next burst's end with the
    /// number of calls that burst answered; `Held` (not deferred) says how many wait now;
    /// `Block` holds the connection's thread a while, so that what comes meanwhile is read
    /// in one burst; `Drop` forgets its reply; `Twice` answers three times; `Refuse` throws;
    /// `Later` is answered from another thread.
    @discardableResult
    static func export(on server: Connection) throws -> Record {
        let record = Record()
        try server.export([Interface("org.almanac.Deferred1", methods: [
            Method.deferred("Hold", outputs: [Argument("batch", .uint32)]) { _, reply in
                record.held.withLock { $0.append(reply) }
            },
            Method("Held", outputs: [Argument("count", .uint32)]) { _, reply in
                try reply.write(UInt32(record.held.withLock { $0.count }))
            },
            Method("Block") { _, _ in
                for _ in 0..<1_000 where !record.release.load(ordering: .acquiring) { usleep(10_000) }
            },
            Method.deferred("Drop") { _, _ in },
            Method.deferred("Twice", outputs: [Argument("which", .string)]) { _, reply in
                let results = [reply.answer { try $0.write("first") }, reply.answer { try $0.write("second") }, reply.fail(BusError.failed("third"))]
                record.twice.withLock { $0 = results }
            },
            Method.deferred("Refuse") { _, _ in throw BusError.invalidArgs("not that") },
            Method.deferred("Later", outputs: [Argument("text", .string)]) { _, reply in
                Task.detached {
                    try? await Task.sleep(for: .milliseconds(20))
                    reply.answer { try $0.write("later") }
                }
            },
        ])], at: path)
        server.afterDispatching {
            let batch = record.held.withLock { held in
                defer { held.removeAll() }
                return held
            }
            for reply in batch { reply.answer { try $0.write(UInt32(batch.count)) } }
        }
        return record
    }

    /// Holds the server's thread (in a task of its own) until `record.release` is set, so
    /// the calls sent meanwhile arrive together.
    func blockServer(_ pair: BusPair) async throws -> Task<Message, any Error> {
        let blocking = Task { try await call(pair, "Block") }
        try await Task.sleep(for: .milliseconds(50))
        return blocking
    }

    /// Lets the server go once `calls` of the test's own calls are under way and a moment
    /// has passed for them to be sent (no fixed 300 ms that a loaded machine could outlast).
    func release(_ record: Record, reaches calls: Int) {
        Task {
            while record.started.withLock({ $0 }) < calls { try? await Task.sleep(for: .milliseconds(5)) }
            try? await Task.sleep(for: .milliseconds(200))
            record.release.store(true, ordering: .releasing)
        }
    }

    func call(_ pair: BusPair, _ method: String) async throws -> Message {
        try await pair.client.call(pair.serverName, path: Self.path, interface: Self.interfaceName, method: MemberName(method))
    }

    @Test func heldRepliesAreAnsweredWhenTheBurstEnds() async throws {
        let pair = try await BusPair.start()
        let record = try Self.export(on: pair.server)
        let blocking = try await blockServer(pair)
        release(record, reaches: 32)
        let batches = try await withThrowingTaskGroup(of: UInt32.self) { group in
            for _ in 0..<32 {
                group.addTask {
                    record.started.withLock { $0 += 1 }
                    return try await call(pair, "Hold").arguments(UInt32.self)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Every call was answered by a burst's end (a reply sent any other way has no batch
        // number), and the batch sizes add up: a batch of n shows up n times.
        #expect(batches.count == 32)
        let sizes = Dictionary(grouping: batches, by: { $0 })
        #expect(sizes.allSatisfy { size, members in size > 0 && members.count % Int(size) == 0 })
        // Sent while the server was busy, they were read together: some answered as a batch.
        #expect((batches.max() ?? 0) > 1, "\(batches)")
        _ = try await blocking.value
        await pair.close()
    }

    @Test func aCallAfterDeferredOnesFindsThemFinished() async throws {
        let pair = try await BusPair.start()
        let record = try Self.export(on: pair.server)
        let blocking = try await blockServer(pair)
        // In order on one connection, read in one burst: three deferred calls, then one that is not.
        for _ in 0..<3 {
            try pair.client.callWithoutReply(pair.serverName, path: Self.path, interface: Self.interfaceName, method: "Hold") { _ in }
        }
        release(record, reaches: 0)
        let held = try await call(pair, "Held").arguments(UInt32.self)
        #expect(held == 0, "the burst-end work runs before a call that follows deferred ones")
        _ = try await blocking.value
        await pair.close()
    }

    @Test func aDroppedReplyAnswersFailedAtOnce() async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server)
        let error = try await #require(throws: BusError.self) {
            _ = try await pair.client.call(pair.serverName, path: Self.path, interface: Self.interfaceName,
                                           method: "Drop", timeout: .seconds(60))
        }
        // Failed from the server, not NoReply from a timeout (the test's limit is shorter).
        #expect(error.name == .failed)
        #expect(error.message.contains("without an answer"))
        await pair.close()
    }

    @Test func onlyTheFirstAnswerIsSent() async throws {
        let pair = try await BusPair.start()
        let record = try Self.export(on: pair.server)
        #expect(try await call(pair, "Twice").arguments(String.self) == "first")
        // The first answer goes out before the handler records all three: wait for the record.
        #expect(await eventually { record.twice.withLock { $0 } == [true, false, false] })
        // The connection still answers in order afterwards: no stray reply was left queued.
        #expect(try await call(pair, "Later").arguments(String.self) == "later")
        await pair.close()
    }

    @Test func aThrowingHandlerIsAnsweredWithItsError() async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server)
        let error = try await #require(throws: BusError.self) { _ = try await call(pair, "Refuse") }
        #expect(error.name == .invalidArgs)
        #expect(error.message == "not that")
        await pair.close()
    }
}
