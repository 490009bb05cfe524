import DBus
import Locking
import Synchronization
import TestHarness
import Testing

/// `whenPeersLeave`: a server hears of each client that leaves the bus, once, on its
/// connection's thread (`make stress`'s cycles row shows it keeps pace with clients that
/// come and go).
@Suite(.onTestThreads, .timeLimit(.hang)) struct DepartureTests {
    final class Departed: Sendable {
        let names = Locked<[String]>([])
    }

    @Test func aClientThatLeavesIsToldOnce() async throws {
        let pair = try await BusPair.start()
        let departed = Departed()
        try await pair.server.whenPeersLeave { name in departed.names.withLock { $0.append(name.rawValue) } }
        let leaving = try await Connection.connect(to: pair.bus.address)
        let name = try #require(leaving.uniqueName?.rawValue)
        _ = try await leaving.call(pair.serverName, path: TestObject.path, interface: TestObject.interfaceName,
                                   method: MemberName("Echo")) { try $0.write("before leaving") }
        await leaving.close()
        #expect(await eventually { departed.names.withLock { $0 }.contains(name) }, "\(departed.names.withLock { $0 })")
        _ = try await pair.call("Echo") { try $0.write("after") }
        #expect(departed.names.withLock { $0 }.filter { $0 == name }.count == 1)
        // The client that stays is not among them.
        #expect(!departed.names.withLock { $0 }.contains(pair.client.uniqueName!.rawValue))
        await pair.close()
    }
}
