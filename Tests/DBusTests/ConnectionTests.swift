import DBus
import DBusTestSupport
import Testing

@Suite struct ConnectionTests {
    @Test func connectsAndGetsAUniqueName() async throws {
        let bus = try PrivateBus()
        let connection = try await Connection.connect(to: bus.address)
        let name = try #require(connection.uniqueName)
        #expect(name.isUnique)
        #expect(connection.isConnected)
        await connection.close()
        #expect(!connection.isConnected)
    }

    @Test func callGetsTheReply() async throws {
        let pair = try await BusPair.start()
        let reply = try await pair.call("Echo") { try $0.write("hello, bus") }
        let (text) = try reply.arguments(String.self)
        #expect(text == "hello, bus")
        let sum = try await pair.client.call(pair.serverName, path: TestObject.path, interface: TestObject.interfaceName,
                                             method: MemberName("Add"), arguments: Int32.max, Int32(1))
        #expect(try sum.arguments(Int64.self) == Int64(Int32.max) + 1)
        await pair.close()
    }
}
