import DBus
import Foundation
import Locking
import TestHarness
import Testing

/// What keeps a peer from holding a connection up: registering on a bus that never answers
/// ends after its timeout or when the task is cancelled (libdbus's own `dbus_bus_register`
/// waits for ever), and signals can be handed to a handler on the connection's thread, in
/// the order they come, for a program that bounds what it keeps of each sender itself.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BoundedWaitsTests {
    @Test(arguments: [false, true])
    func registeringOnABusThatNeverAnswersEndsWithNoReply(afterAuthentication: Bool) async throws {
        let silent = try await SilentBus(afterAuthentication: afterAuthentication)
        let error = try await #require(throws: BusError.self) {
            _ = try await Connection.connect(to: silent.address, timeout: .milliseconds(300))
        }
        #expect(error.name == .noReply, "\(error)")
    }

    @Test func cancellingTheTaskEndsRegisteringOnABusThatNeverAnswers() async throws {
        let silent = try await SilentBus()
        let connecting = Task { try await Connection.connect(to: silent.address, timeout: .seconds(3_600)) }
        // Give it time to be waiting (a cancellation before it starts is handled too).
        try await Task.sleep(for: .milliseconds(100))
        connecting.cancel()
        await #expect(throws: CancellationError.self) { _ = try await connecting.value }
    }

    @Test func handlersGetSignalsOnTheConnectionsThreadInOrderUntilCancelled() async throws {
        let pair = try await BusPair.start()
        let seen = Locked<[(value: UInt32, onLoop: Bool)]>([])
        let client = pair.client
        let watch = try await client.onSignals(matching: MatchRule(interface: TestObject.interfaceName, member: "Tick")) { message in
            guard let (value) = try? message.arguments(UInt32.self) else { return }
            seen.withLock { $0.append((value, client.isOnConnectionThread)) }
        }
        _ = try await pair.call("Emit") { try $0.write(UInt32(50)) }
        #expect(await eventually { seen.withLock { $0.count } == 50 })
        #expect(seen.withLock { $0.map(\.value) } == Array(1...50))
        #expect(seen.withLock { $0.allSatisfy(\.onLoop) })

        watch.cancel()
        _ = try await pair.call("Emit") { try $0.write(UInt32(5)) }
        // A call made after the signals returns after they were read.
        _ = try await client.call(.bus, path: "/org/freedesktop/DBus", interface: .peer, method: "Ping") { _ in }
        #expect(seen.withLock { $0.count } == 50)
        await pair.close()
    }

    @Test func aMessageSaysItsSizeOnTheWire() async throws {
        let pair = try await BusPair.start()
        let sizes = Locked<[Int]>([])
        let member = MemberName("Big")
        let watch = try await pair.client.onSignals(matching: MatchRule(interface: TestObject.interfaceName, member: member)) { message in
            sizes.withLock { $0.append(message.wireSize) }
        }
        try pair.server.emit(path: TestObject.path, interface: TestObject.interfaceName, signal: member, arguments: String(repeating: "x", count: 100_000))
        #expect(await eventually { !sizes.withLock { $0 }.isEmpty })
        let size = try #require(sizes.withLock { $0.first })
        #expect(size > 100_000 && size < 100_000 + 1_024, "\(size)")
        watch.cancel()
        await pair.close()
    }
}
