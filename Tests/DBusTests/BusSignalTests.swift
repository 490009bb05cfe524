@testable import DBus
import TestHarness
import Testing

/// Typed signal definitions (`BusSignal`): the declaration's introspection, the emit and the
/// receiver's match rule and decoding all come from one definition, and the bytes are the
/// ones a hand-written emit sends.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BusSignalTests {
    static let path = ObjectPath("/org/almanac/Typed")
    static let interface = InterfaceName("org.almanac.Typed1")
    static let changed = BusSignal<Args<UInt64, [String: Value]>>("Changed", of: interface, arguments: ["revision", "changes"])
    static let named = BusSignal<Args<[String], ObjectPath>>("Named", of: interface, arguments: ["names", "where"])

    @Test func introspectionShowsTheDefinitionsNamesAndTypes() async throws {
        let pair = try await BusPair.start()
        try pair.server.export([Interface(Self.interface.rawValue, signals: [SignalDescription(Self.changed), SignalDescription(Self.named)])], at: Self.path)
        let (xml) = try await pair.client.call(pair.serverName, path: Self.path, interface: .introspectable, method: "Introspect").arguments(String.self)
        func arguments(of signal: String) throws -> [String] {
            let body = try #require(xml.firstMatch(of: Regex("<signal name=\"\(signal)\">(.*?)</signal>").dotMatchesNewlines()))
            return String(body.output[1].substring ?? "").matches(of: /<arg name="(\w+)" type="([^"]+)"/).map { "\($0.1) \($0.2)" }
        }
        #expect(try arguments(of: "Changed") == ["revision t", "changes a{sv}"])
        #expect(try arguments(of: "Named") == ["names as", "where o"])
        #expect(Self.changed.signature == "ta{sv}" && Self.named.signature == "aso")
        await pair.close()
    }

    @Test func aTypedSignalArrivesAsTheDefinitionsValues() async throws {
        let pair = try await BusPair.start()
        let signals = try await pair.client.signals(matching: Self.changed.rule(sender: pair.serverName, path: Self.path))
        try pair.server.emit(Self.changed, path: Self.path, (7, ["kind": .string("units"), "units": .string("imperial")]))
        var iterator = signals.makeAsyncIterator()
        let message = try #require(await iterator.next())
        let (revision, changes) = try Self.changed.values(of: message)
        #expect(revision == 7)
        #expect(changes == ["kind": .string("units"), "units": .string("imperial")])
        // Unicast: only the destination hears it.
        try pair.server.emit(Self.changed, path: Self.path, destination: pair.client.uniqueName, (8, [:]))
        #expect(try Self.changed.values(of: try #require(await iterator.next())).0 == 8)
        await pair.close()
    }

    @Test func anotherMemberOrOtherTypesAreRefusedWhenDecoding() async throws {
        let pair = try await BusPair.start()
        let signals = try await pair.client.signals(matching: MatchRule(sender: pair.serverName, interface: Self.interface))
        // Sent by hand, as a peer that disagrees might: `s` where the definition says `ta{sv}`.
        try pair.server.emit(path: Self.path, interface: Self.interface, signal: Self.changed.name, arguments: "seven")
        try pair.server.emit(Self.named, path: Self.path, (["a"], Self.path))
        var iterator = signals.makeAsyncIterator()
        let wrongTypes = try #require(await iterator.next())
        let error = try #require(throws: BusError.self) { try Self.changed.values(of: wrongTypes) }
        #expect(error.name == .invalidArgs && error.message.contains("'s'") && error.message.contains("'ta{sv}'"))
        let otherMember = try #require(await iterator.next())
        #expect(throws: BusError.self) { try Self.changed.values(of: otherMember) }
        #expect(try Self.named.values(of: otherMember) == (["a"], Self.path))
        await pair.close()
    }

    @Test func aTypedSignalsBodyIsTheHandWrittenOnesBytes() throws {
        let changes: [String: Value] = ["kind": .string("units"), "units": .string("imperial"), "at": .int64(1_700_000_000), "list": .array(.string, [.string("a")])]
        let typed = try Message.signal(path: Self.path, interface: Self.interface, member: Self.changed.name) { writer in
            try Args<UInt64, [String: Value]>.write((42, changes), to: &writer)
        }
        let byHand = try Message.signal(path: Self.path, interface: Self.interface, member: Self.changed.name) { writer in
            try writer.write(UInt64(42))
            try writer.write(changes)
        }
        #expect(try typed.marshalled() == byHand.marshalled())
    }
}
