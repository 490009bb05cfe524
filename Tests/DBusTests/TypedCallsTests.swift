import DBus
import Locking
import TestHarness
import Testing

/// The other ways to use a typed method definition (`BusMethod`): a call that wants no reply,
/// a call on a `BlockingConnection`, an offloading method that checks its reply's length
/// before it is sent, and a reply written into and read from a payload outside a call.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TypedCallsTests {
    static let path = ObjectPath("/org/almanac/Typed")
    static let interface = InterfaceName("org.almanac.Typed1")
    static let note = BusMethod<Args<String>, Args<>>("Note", of: interface, arguments: ["text"])
    static let pair = BusMethod<Args<UInt32>, Args<UInt64, [String: Value]>>("Pair", of: interface, arguments: ["count"], reply: ["total", "entries"])
    static let text = BusMethod<Args<UInt32>, Args<String>>("Text", of: interface, arguments: ["bytes"], reply: ["text"])
    /// The longest reply body `text` sends: a string of 90 bytes (4 for its length, 1 for its end).
    static let longestBody = 95

    static func export(on server: Connection, noted: @escaping @Sendable (String) -> Void = { _ in }, measured: @escaping @Sendable (Int) -> Void = { _ in }) throws {
        try server.export([Interface(interface.rawValue, methods: [
            Method(note) { _, text in noted(text) },
            Method(pair) { _, count in (UInt64(count), ["count": .uint32(count)]) },
            Method(text, offloading: { _, bytes in
                { String(repeating: "a", count: Int(bytes)) }
            }, checkingLength: { _, _, length in
                measured(length)
                guard length <= longestBody else { throw BusError(.limitsExceeded, "\(length) bytes is too long; ask for fewer.") }
            }),
        ])], at: path)
    }

    @Test func aTypedCallWithoutReplyReachesTheHandler() async throws {
        let pair = try await BusPair.start()
        let noted = Locked<[String]>([])
        try Self.export(on: pair.server, noted: { text in noted.withLock { $0.append(text) } })
        try pair.client.callWithoutReply(Self.note, on: pair.serverName, path: Self.path, "unanswered")
        #expect(await eventually { noted.withLock { $0 } == ["unanswered"] })
        await pair.close()
    }

    @Test func aBlockingConnectionCallsByTheDefinition() async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server)
        let blocking = try BlockingConnection(address: pair.bus.address)
        let (total, entries) = try blocking.call(Self.pair, on: pair.serverName, path: Self.path, 7)
        #expect(total == 7 && entries == ["count": .uint32(7)])
        // A reply of other types than the definition's is refused, not misread.
        let misread = BusMethod<Args<UInt32>, Args<String>>(Self.pair.name, of: Self.interface, arguments: ["count"], reply: ["text"])
        let error = try #require(throws: BusError.self) { _ = try blocking.call(misread, on: pair.serverName, path: Self.path, 7) }
        #expect(error.name == .invalidArgs)
        await pair.close()
    }

    @Test func anOffloadingMethodsLengthCheckSeesTheBodyAndRefusesBeforeSending() async throws {
        let pair = try await BusPair.start()
        let lengths = Locked<[Int]>([])
        try Self.export(on: pair.server, measured: { length in lengths.withLock { $0.append(length) } })
        #expect(try await pair.client.call(Self.text, on: pair.serverName, path: Self.path, 90) == String(repeating: "a", count: 90))
        let error = try await #require(throws: BusError.self) {
            _ = try await pair.client.call(Self.text, on: pair.serverName, path: Self.path, 91)
        }
        #expect(error.name == .limitsExceeded && error.message == "96 bytes is too long; ask for fewer.", "\(error.message)")
        #expect(lengths.withLock { $0 } == [95, 96])
        await pair.close()
    }

    @Test func aPayloadCarriesAReplyWrittenAndReadByItsDefinition() throws {
        let payload = try Message.payload { try Self.pair.writeReply((3, ["count": .uint32(3)]), to: &$0) }
        let message = try Message(payload: payload)
        let (total, entries) = try Self.pair.reply(of: message)
        #expect(total == 3 && entries == ["count": .uint32(3)])
        let error = try #require(throws: BusError.self) { _ = try Self.text.reply(of: message) }
        #expect(error.name == .invalidArgs)
    }
}
