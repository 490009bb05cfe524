import DBus
#if canImport(Glibc)
import Glibc
#endif
import Locking
import Synchronization
import TestHarness
import Testing

/// Methods that answer later (`Method.deferred`): a reply held by the handler, answered once,
/// from any thread.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DeferredReplyTests {
    static let path = ObjectPath("/org/almanac/Deferred")
    static let interfaceName = InterfaceName("org.almanac.Deferred1")

    /// What the exported object saw, for the tests to check.
    final class Record: Sendable {
        /// Whether each of `Twice`'s three answers was the one sent.
        let twice = Locked<[Bool]>([])
    }

    /// Exports `org.almanac.Deferred1`: `Drop` forgets its reply; `Twice` answers three
    /// times; `Refuse` throws; `Later` is answered from another thread.
    @discardableResult
    static func export(on server: Connection) throws -> Record {
        let record = Record()
        try server.export([Interface("org.almanac.Deferred1", methods: [
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
        return record
    }

    func call(_ pair: BusPair, _ method: String) async throws -> Message {
        try await pair.client.call(pair.serverName, path: Self.path, interface: Self.interfaceName, method: MemberName(method))
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
