import DBus
import Foundation
import Locking
import TestHarness
import Testing

/// `Connection.replyToErrors(with:)`: one rule turns every handler's error that is not a
/// `BusError` into its error reply, whichever way the handler answers.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ErrorReplyRuleTests {
    static let path = ObjectPath("/org/almanac/Rule")
    static let interfaceName = InterfaceName("org.almanac.Rule1")

    /// An application's own error, which knows the name it goes by.
    struct Refusal: Error, CustomStringConvertible {
        let name: ErrorName
        let message: String
        var description: String { "internal words: /var/lib/secret.db" }
    }

    /// Exports `org.almanac.Rule1`, whose every way of answering throws `error`.
    static func export(on server: Connection, throwing error: @escaping @Sendable () -> any Error) throws {
        try server.export([Interface("org.almanac.Rule1", methods: [
            Method("Plain") { _, _ in throw error() },
            Method("Awaiting", async: { _, _ in throw error() }),
            Method("Offloaded", offloading: { _ in { _ in throw error() } }),
            Method.deferred("Deferred") { _, reply in reply.fail(error()) },
            Method("Named") { _, _ in throw BusError(.accessDenied, "kept as it is") },
        ], properties: [
            Property("Broken", .string) { throw error() },
        ])], at: path)
    }

    /// The error reply `member` gets (a method, or the property `Broken` read with `Get`).
    func reply(_ pair: BusPair, _ member: String) async throws -> BusError {
        try await #require(throws: BusError.self) {
            if member == "Broken" {
                _ = try await pair.client.call(pair.serverName, path: Self.path, interface: .properties, method: "Get",
                                               arguments: Self.interfaceName.rawValue, member)
            } else {
                _ = try await pair.client.call(pair.serverName, path: Self.path, interface: Self.interfaceName, method: MemberName(member))
            }
        }
    }

    static let members = ["Plain", "Awaiting", "Offloaded", "Deferred", "Broken"]

    @Test func everyWayOfAnsweringGoesThroughTheRule() async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server) { Refusal(name: "org.almanac.Error.Refused", message: "say what to do") }
        pair.server.replyToErrors { error in
            guard let error = error as? Refusal else { return BusError(.failed, "unnamed") }
            return BusError(error.name, error.message)
        }
        for member in Self.members {
            let error = try await reply(pair, member)
            #expect(error.name.rawValue == "org.almanac.Error.Refused", "\(member)")
            #expect(error.message == "say what to do", "\(member)")
        }
        // A BusError is sent as it is: the rule is never asked.
        let named = try await reply(pair, "Named")
        #expect(named.name == .accessDenied && named.message == "kept as it is")
        await pair.close()
    }

    /// The rule is called as it was given at every reply: kept as a bare closure in a lock,
    /// each reply wrapped it in two more thunks (issue 41), so a connection that answered
    /// errors for weeks called its rule through ever more frames, and grew.
    @Test func theRuleIsCalledThroughTheSameStackAtEveryReply() async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server) { Refusal(name: "org.almanac.Error.Refused", message: "say what to do") }
        let depths = Locked<[Int]>([])
        pair.server.replyToErrors { _ in
            depths.withLock { $0.append(Thread.callStackReturnAddresses.count) }
            return BusError(.failed, "refused")
        }
        for _ in 0..<200 { _ = try await reply(pair, "Plain") }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 200)
        #expect(seen.first == seen.last, "called through \((seen.last ?? 0) - (seen.first ?? 0)) more frames at the 200th reply")
        await pair.close()
    }

    @Test func withoutARuleAnErrorIsFailedWithItsDescription() async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server) { Refusal(name: "org.almanac.Error.Refused", message: "say what to do") }
        for member in Self.members {
            let error = try await reply(pair, member)
            #expect(error.name == .failed, "\(member)")
            #expect(error.message == "internal words: /var/lib/secret.db", "\(member)")
        }
        await pair.close()
    }
}
