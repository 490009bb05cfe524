import DBus
import TestHarness
import Testing

/// Typed method definitions (`BusMethod`): the server's entry, its introspection and the
/// client's call all come from one definition; and a reply whose signature is not the one
/// declared is refused in debug builds, whatever kind of handler wrote it.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BusMethodTests {
    static let path = ObjectPath("/org/almanac/Typed")
    static let interface = InterfaceName("org.almanac.Typed1")
    static let scale = BusMethod<Args<String, UInt32>, Args<[VariantDictionary], UInt64>>("Scale", of: interface, arguments: ["name", "count"], reply: ["items", "total"])
    static let later = BusMethod<Args<String>, Args<String>>("Later", of: interface, arguments: ["text"], reply: ["echo"])
    static let nothing = BusMethod<Args<>, Args<>>("Nothing", of: interface)
    static let awaited = BusMethod<Args<[String: Value]>, Args<Bool>>("Awaited", of: interface, arguments: ["options"], reply: ["empty"])
    static let sized = BusMethod<Args<String>, Args<String>>("Sized", of: interface, arguments: ["text"], reply: ["echo"])
    static let sizedLater = BusMethod<Args<String>, Args<String>>("SizedLater", of: interface, arguments: ["text"], reply: ["echo"])

    /// Refuses a reply of more than 64 bytes, naming its value, the call's argument and its length.
    static func refuseLong(_ call: MethodCall, _ echo: String, _ length: Int) throws {
        guard length > 64 else { return }
        throw BusError(.limitsExceeded, "\(echo.count) characters of '\(try call.arguments(of: sized).prefix(3))' take \(length) bytes")
    }

    static func export(on server: Connection) throws {
        try server.export([Interface(interface.rawValue, methods: [
            Method(scale) { _, arguments in
                let (name, count) = arguments
                return ((0..<count).map { VariantDictionary(["name": .string(name), "index": .uint32($0)]) }, UInt64(count) * 2)
            },
            Method.deferred(later) { _, text, reply in
                Task.detached { reply.answer(text.uppercased()) }
            },
            Method(nothing) { _, _ in },
            Method(awaited, async: { _, options in
                await Task.yield()
                return options.isEmpty
            }),
            Method(sized, async: { _, text in text }, checkingLength: refuseLong),
            Method(sizedLater, offloading: { _, text in { text } }, checkingLength: refuseLong),
            // Hand-written entries that answer other types than they declare.
            try Method("WrongSync", outputs: [Argument("count", .uint32)]) { _, reply in try reply.write("three") },
            try Method("WrongAsync", outputs: [Argument("count", .uint32)], async: { _, reply in try reply.write(UInt64(3)) }),
            try Method.deferred("WrongDeferred", outputs: [Argument("count", .uint32)]) { _, reply in reply.answer { _ in } },
            try Method("WrongRecord", outputs: [Argument("record", .dictionary(key: .string, value: .variant))]) { _, reply in
                try VariantDictionary(.string("not a dictionary")).encode(to: &reply)
            },
        ])], at: path)
    }

    @Test func aTypedCallCarriesTheDefinitionsTypesBothWays() async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server)
        let (items, total) = try await pair.client.call(Self.scale, on: pair.serverName, path: Self.path, ("x", 3))
        #expect(total == 6)
        #expect(items.map(\.value) == (0..<3).map { Value.stringVariantDictionary(["name": .string("x"), "index": .uint32(UInt32($0))]) })
        #expect(try await pair.client.call(Self.later, on: pair.serverName, path: Self.path, "quiet") == "QUIET")
        try await pair.client.call(Self.nothing, on: pair.serverName, path: Self.path, ())
        #expect(try await pair.client.call(Self.awaited, on: pair.serverName, path: Self.path, [:]))
        #expect(try await !pair.client.call(Self.awaited, on: pair.serverName, path: Self.path, ["a": .boolean(true)]))
        await pair.close()
    }

    @Test func introspectionShowsTheDefinitionsNamesAndTypes() async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server)
        let reply = try await pair.client.call(pair.serverName, path: Self.path, interface: .introspectable, method: "Introspect")
        let (xml) = try reply.arguments(String.self)
        let scale = try #require(xml.firstMatch(of: /<method name="Scale">(.*?)<\/method>/.dotMatchesNewlines()).map { String($0.1) })
        let arguments = scale.matches(of: /<arg name="(\w+)" type="([^"]+)" direction="(\w+)"/).map { "\($0.1) \($0.2) \($0.3)" }
        #expect(arguments == ["name s in", "count u in", "items aa{sv} out", "total t out"])
        await pair.close()
    }

    @Test func aCallWithOtherTypesIsRefusedBeforeTheHandler() async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server)
        let error = try await #require(throws: BusError.self) {
            _ = try await pair.client.call(pair.serverName, path: Self.path, interface: Self.interface, method: Self.scale.name, arguments: "x", Int32(3))
        }
        #expect(error.name == .invalidArgs)
        #expect(error.message.contains("'su'"))
        await pair.close()
    }

    @Test(arguments: [sized, sizedLater])
    func aReplysLengthIsCheckedAfterItIsWrittenAndTheCheckCanRefuseIt(method: BusMethod<Args<String>, Args<String>>) async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server)
        #expect(try await pair.client.call(method, on: pair.serverName, path: Self.path, "short") == "short")
        // A string's body is its length (4 bytes), its bytes and a nul: 105 bytes for 100.
        let error = try await #require(throws: BusError.self) {
            _ = try await pair.client.call(method, on: pair.serverName, path: Self.path, String(repeating: "x", count: 100))
        }
        #expect(error.name == .limitsExceeded)
        #expect(error.message == "100 characters of 'xxx' take 105 bytes", "\(error.message)")
        await pair.close()
    }

    #if DEBUG
    @Test(arguments: ["WrongSync", "WrongAsync", "WrongDeferred", "WrongRecord"])
    func aReplyOfOtherTypesThanDeclaredIsRefusedInDebugBuilds(method: String) async throws {
        let pair = try await BusPair.start()
        try Self.export(on: pair.server)
        let error = try await #require(throws: BusError.self) {
            _ = try await pair.client.call(pair.serverName, path: Self.path, interface: Self.interface, method: MemberName(method))
        }
        #expect(error.name == .failed)
        #expect(method == "WrongRecord" ? error.message.contains("a{sv}") : error.message.contains("declares 'u'"), "\(error.message)")
        await pair.close()
    }
    #endif
}
