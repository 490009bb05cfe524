import DBus
import Locking
import Synchronization
import TestHarness

/// An object exported by tests: `org.almanac.Test1` at `/org/almanac/Test`, with methods
/// that echo, fail, sleep and emit, and a read-only and a read-write property.
final class TestObject: Sendable {
    static let path = ObjectPath("/org/almanac/Test")
    static let interfaceName = InterfaceName("org.almanac.Test1")

    let counter = Atomic<UInt32>(0)
    let label = Locked("initial")
    /// Opened by `Release`, awaited by `WaitForRelease`.
    let gate = AsyncStream<Void>.makeStream()

    func interface(connection: @escaping @Sendable () -> Connection?) throws -> Interface {
        try Interface(
            "org.almanac.Test1",
            methods: [
                Method("Echo", inputs: [Argument("text", .string)], outputs: [Argument("text", .string)]) { call, reply in
                    let (text) = try call.arguments(String.self)
                    try reply.write(text)
                },
                Method("Add", inputs: [Argument("a", .int32), Argument("b", .int32)], outputs: [Argument("sum", .int64)]) { call, reply in
                    let (a, b) = try call.arguments(Int32.self, Int32.self)
                    try reply.write(Int64(a) + Int64(b))
                },
                Method("EchoValue", inputs: [Argument("value", .variant)], outputs: [Argument("value", .variant)]) { call, reply in
                    let (value) = try call.arguments(Value.self)
                    try reply.writeVariant(value)
                },
                Method("Fail", inputs: [Argument("message", .string)]) { call, _ in
                    let (message) = try call.arguments(String.self)
                    throw BusError(ErrorName("org.almanac.Error.Test"), message)
                },
                Method("FailPlainly") { _, _ in
                    struct Oops: Error, CustomStringConvertible { var description: String { "something broke" } }
                    throw Oops()
                },
                Method("Sleep", inputs: [Argument("milliseconds", .uint32)], async: { call, _ in
                    let (milliseconds) = try call.arguments(UInt32.self)
                    try await Task.sleep(for: .milliseconds(Int(milliseconds)))
                }),
                Method("WaitForRelease", outputs: [Argument("answer", .string)], async: { [self] _, reply in
                    for await _ in gate.stream { break }
                    try reply.write("released")
                }),
                Method("Release") { [self] _, _ in gate.continuation.yield() },
                Method("Emit", inputs: [Argument("count", .uint32)]) { [self] call, _ in
                    let (count) = try call.arguments(UInt32.self)
                    guard let connection = connection() else { return }
                    for _ in 0..<count {
                        let n = counter.add(1, ordering: .relaxed).newValue
                        try connection.emit(path: Self.path, interface: Self.interfaceName, signal: "Tick", arguments: n)
                    }
                },
            ],
            properties: [
                Property("Count", .uint32) { [self] in .uint32(counter.load(ordering: .relaxed)) },
                Property("Label", .string, get: { [self] in .string(label.withLock { $0 }) }, set: { [self] value in
                    guard case .string(let text) = value, !text.isEmpty else { throw BusError.invalidArgs("Label cannot be empty.") }
                    label.withLock { $0 = text }
                }),
            ],
            signals: [SignalDescription("Tick", arguments: [Argument("count", .uint32)])]
        )
    }
}

/// A private bus with two connected clients: `server` exports the test object, `client` talks to it.
struct BusPair: Sendable {
    let bus: PrivateBus
    let server: Connection
    let client: Connection
    let object: TestObject

    static func start() async throws -> BusPair {
        let bus = try PrivateBus()
        let server = try await Connection.connect(to: bus.address)
        let client = try await Connection.connect(to: bus.address)
        let object = TestObject()
        try server.export([object.interface { [weak server] in server }], at: TestObject.path)
        return BusPair(bus: bus, server: server, client: client, object: object)
    }

    var serverName: BusName { server.uniqueName! }

    func call(_ method: String, timeout: Duration = Connection.defaultTimeout,
              body: (inout MessageWriter) throws -> Void = { _ in }) async throws -> Message {
        try await client.call(serverName, path: TestObject.path, interface: TestObject.interfaceName,
                              method: MemberName(method), timeout: timeout, body: body)
    }

    func close() async {
        await client.close()
        await server.close()
        bus.stop()
    }
}
