import DBus
import DBusTestSupport
import Locking
import Synchronization
import Testing

/// Methods that answer later (`Method.deferred`) and the connection's `afterDispatching` hook
/// that finishes a burst of them: the pair a group commit is built on.
@Suite(.timeLimit(.minutes(2))) struct DeferredReplyTests {
    static let path = try! ObjectPath("/org/almanac/Deferred")
    static let interfaceName = try! InterfaceName("org.almanac.Deferred1")

    /// Exports `org.almanac.Deferred1`: `Hold` is answered by the next burst's end with the
    /// number of calls that burst answered; `Drop` forgets its reply; `Twice` answers twice;
    /// `Refuse` throws; `Later` is answered from another thread.
    static func export(on server: Connection) throws {
        let held = Locked<[DeferredReply]>([])
        try server.export([Interface("org.almanac.Deferred1", methods: [
            Method.deferred("Hold", outputs: [Argument("batch", .uint32)]) { _, reply in
                held.withLock { $0.append(reply) }
            },
            Method.deferred("Drop") { _, _ in },
            Method.deferred("Twice", outputs: [Argument("which", .string)]) { _, reply in
                reply.answer { try $0.write("first") }
                reply.answer { try $0.write("second") }
                reply.fail(BusError.failed("third"))
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
            let batch = held.withLock { held in
                defer { held.removeAll() }
                return held
            }
            for reply in batch { reply.answer { try $0.write(UInt32(batch.count)) } }
        }
    }

    func call(_ pair: BusPair, _ method: String) async throws -> Message {
        try await pair.client.call(pair.serverName, path: Self.path, interface: Self.interfaceName, method: MemberName(method))
    }

    @Test func heldRepliesAreAnsweredWhenTheBurstEnds() async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server)
        let batches = try await withThrowingTaskGroup(of: UInt32.self) { group in
            for _ in 0..<32 { group.addTask { try await call(pair, "Hold").arguments(UInt32.self) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Every call was answered by a burst's end (a reply sent any other way has no batch
        // number), and the batch sizes add up: a batch of n shows up n times.
        #expect(batches.count == 32)
        let sizes = Dictionary(grouping: batches, by: { $0 })
        #expect(sizes.allSatisfy { size, members in size > 0 && members.count % Int(size) == 0 })
        await pair.close()
    }

    @Test func aDroppedReplyAnswersFailedAtOnce() async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server)
        let error = try await #require(throws: BusError.self) {
            _ = try await pair.client.call(pair.serverName, path: Self.path, interface: Self.interfaceName,
                                           method: MemberName("Drop"), timeout: .seconds(60))
        }
        // Failed from the server, not NoReply from a timeout (the test's limit is shorter).
        #expect(error.name == .failed)
        #expect(error.message.contains("without an answer"))
        await pair.close()
    }

    @Test func onlyTheFirstAnswerIsSent() async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server)
        #expect(try await call(pair, "Twice").arguments(String.self) == "first")
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
