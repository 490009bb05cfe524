import DBus
import Locking
import TestHarness
import Testing

/// Typed property definitions (`BusProperty`): the server's entry, its introspection, its
/// `PropertiesChanged` entries and the client's reads all come from one definition; a getter
/// whose value is not of the declared type is refused, and a read of another type fails.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BusPropertyTests {
    static let path = ObjectPath("/org/almanac/Typed")
    static let interface = InterfaceName("org.almanac.Typed1")
    static let count = BusProperty<UInt32>("Count", of: interface)
    static let names = BusProperty<[String]>("Names", of: interface)
    static let record = BusProperty<VariantDictionary>("Record", of: interface)
    static let label = BusProperty<String>("Label", of: interface, access: .readwrite)
    /// A getter of the right Swift type whose value is not: a `VariantDictionary` holding a string.
    static let broken = BusProperty<VariantDictionary>("Broken", of: interface)

    /// What `Label` holds, as the server's setter leaves it.
    final class Store: Sendable {
        let label = Locked("first")
        var value: String { label.withLock { $0 } }
    }

    static func export(on server: Connection) throws -> Store {
        let store = Store()
        try server.export([Interface(interface.rawValue, properties: [
            Property(count) { 3 },
            Property(names) { ["a", "b"] },
            Property(record, emitsChange: false) { VariantDictionary(["b": .uint32(2), "a": .string("x")]) },
            Property(Self.label, get: { store.value }, set: { new in store.label.withLock { $0 = new } }),
            Property(broken) { VariantDictionary(.string("not a dictionary")) },
        ])], at: path)
        return store
    }

    @Test func introspectionShowsTheDefinitionsTypesAndAccess() async throws {
        let pair = try await BusPair.start()
        _ = try Self.export(on: pair.server)
        let (xml) = try await pair.client.call(pair.serverName, path: Self.path, interface: .introspectable, method: "Introspect").arguments(String.self)
        let properties = xml.matches(of: /<property name="(\w+)" type="([^"]+)" access="(\w+)"/).map { "\($0.1) \($0.2) \($0.3)" }
        #expect(properties == ["Count u read", "Names as read", "Record a{sv} read", "Label s readwrite", "Broken a{sv} read"])
        #expect(xml.contains("<property name=\"Record\" type=\"a{sv}\" access=\"read\">\n   <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"false\"/>"))
        await pair.close()
    }

    @Test func typedReadsAndWritesCarryTheDefinitionsTypes() async throws {
        let pair = try await BusPair.start()
        let label = try Self.export(on: pair.server)
        let (client, name) = (pair.client, pair.serverName)
        #expect(try await client.property(Self.count, on: name, path: Self.path) == 3)
        #expect(try await client.property(Self.names, on: name, path: Self.path) == ["a", "b"])
        #expect(try await client.property(Self.record, on: name, path: Self.path).entries == ["b": .uint32(2), "a": .string("x")])
        let all = try await client.properties(of: Self.interface, on: name, path: Self.path)
        #expect(all[Self.count] == 3 && all[Self.names] == ["a", "b"] && all[Self.label] == "first")
        #expect(all[Self.broken] == nil && all["Broken"] == nil)

        // A Set is announced with PropertiesChanged; the client reads the entry as the definition's type.
        let changes = try await client.signals(matching: BusSignal.propertiesChanged.rule(sender: name, path: Self.path))
        try await client.setProperty(Self.label, on: name, path: Self.path, "second")
        #expect(label.value == "second")
        var iterator = changes.makeAsyncIterator()
        let (interface, changed, _) = try BusSignal.propertiesChanged.values(of: try #require(await iterator.next()))
        #expect(interface == Self.interface.rawValue && changed[Self.label] == "second")
        #expect(Self.label.entry("second") == ("Label", .string("second")))
        await pair.close()
    }

    @Test func aGetterWhoseValueIsOfAnotherTypeIsRefused() async throws {
        let pair = try await BusPair.start()
        _ = try Self.export(on: pair.server)
        let error = try await #require(throws: BusError.self) {
            _ = try await pair.client.property(Self.broken, on: pair.serverName, path: Self.path)
        }
        #expect(error.name == .failed)
        #expect(error.message.contains("'s' instead of 'a{sv}'"))
        await pair.close()
    }

    @Test func aReadOrWriteOfAnotherTypeThanServedFails() async throws {
        let pair = try await BusPair.start()
        let label = try Self.export(on: pair.server)
        // A client whose definition disagrees with the server's (another program's, say).
        let countAsText = BusProperty<String>("Count", of: Self.interface)
        let labelAsNumber = BusProperty<UInt32>("Label", of: Self.interface, access: .readwrite)
        let read = try await #require(throws: BusError.self) {
            _ = try await pair.client.property(countAsText, on: pair.serverName, path: Self.path)
        }
        #expect(read.name == .invalidArgs && read.message.contains("'u' where its definition says 's'"))
        let written = try await #require(throws: BusError.self) {
            try await pair.client.setProperty(labelAsNumber, on: pair.serverName, path: Self.path, 5)
        }
        #expect(written.name == .invalidArgs)
        #expect(label.value == "first")
        await pair.close()
    }
}
