import DBus
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct BlockingConnectionTests {
    @Test func callGetsTheReplyOnTheCallingThread() async throws {
        let pair = try await BusPair.start()
        let blocking = try BlockingConnection(address: pair.bus.address)
        let reply = try blocking.call(pair.serverName, path: TestObject.path, interface: TestObject.interfaceName,
                                      method: "Echo") { try $0.write("hello, bus") }
        #expect(try reply.arguments(String.self) == "hello, bus")
        #expect(reply.sender == pair.serverName)
        await pair.close()
    }

    @Test func anErrorReplyThrowsThePeersError() async throws {
        let pair = try await BusPair.start()
        let blocking = try BlockingConnection(address: pair.bus.address)
        let error = try #require(throws: BusError.self) {
            _ = try blocking.call(pair.serverName, path: TestObject.path, interface: TestObject.interfaceName,
                                  method: "Fail") { try $0.write("no, thanks") }
        }
        #expect(error.name.rawValue == "org.almanac.Error.Test")
        #expect(error.message == "no, thanks")
        let unknown = try #require(throws: BusError.self) {
            _ = try blocking.call(BusName("org.almanac.NobodyHere"), path: TestObject.path, interface: nil, method: "Echo")
        }
        #expect(unknown.name == .serviceUnknown)
        await pair.close()
    }

    @Test func connectingToNothingFailsWithAClearError() throws {
        let error = try #require(throws: BusError.self) {
            _ = try BlockingConnection(address: "unix:path=/nonexistent/almanac-test-socket")
        }
        #expect(error.code == .disconnected)
        #expect(!error.message.isEmpty)
    }
}
