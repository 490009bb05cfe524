import DBus
import Foundation
import Synchronization
import TestHarness
import Testing

/// Regressions for what a review found: ways to abort the process, hang a caller, stall a
/// connection or leak a match rule.
@Suite(.onTestThreads, .timeLimit(.hang)) struct RobustnessTests {
    @Test func aWriterThatFailedStaysFailedEvenIfTheErrorWasCaught() async throws {
        let pair = try await BusPair.start()
        let inStructure = try await #require(throws: BusError.self) {
            _ = try await pair.call("Echo") { w in
                try w.writeArray(of: .structure([.string, .string])) { w in
                    try w.writeStructure { w in
                        try? w.write("bad\0")
                        try w.write("x")
                    }
                }
            }
        }
        #expect(inStructure.code == .invalidValue)
        #expect(throws: BusError.self) {
            _ = try roundTrip { w in
                try w.writeArray(of: .structure([.variant, .string])) { w in
                    try w.writeStructure { w in
                        try? w.writeVariant(.structure([]))
                        try w.write("x")
                    }
                }
            }
        }
        // A body-level structure whose only field was refused must not go out as "()".
        await #expect(throws: BusError.self) {
            _ = try await pair.call("Echo") { w in try w.writeStructure { w in try? w.write("a\0") } }
        }
        #expect(pair.client.isConnected)
        let reply = try await pair.call("Echo") { try $0.write("still fine") }
        #expect(try reply.arguments(String.self) == "still fine")
        await pair.close()
    }

    @Test func aCallWaitingWhenTheConnectionClosesFails() async throws {
        let pair = try await BusPair.start()
        let call = Task { try await pair.call("Sleep") { try $0.write(UInt32(60_000)) } }
        try await Task.sleep(for: .milliseconds(100))
        await pair.client.close()
        let error = try await #require(throws: BusError.self) { _ = try await call.value }
        #expect(error.code == .disconnected)
        await pair.close()
    }

    @Test func aCallWaitingWhenTheBusGoesAwayFails() async throws {
        let pair = try await BusPair.start()
        let call = Task { try await pair.call("Sleep") { try $0.write(UInt32(60_000)) } }
        try await Task.sleep(for: .milliseconds(100))
        pair.bus.kill()
        let error = try await #require(throws: BusError.self) { _ = try await call.value }
        #expect(error.code == .disconnected)
    }

    @Test func moreFileDescriptorsThanTheBusAllowsAreRefusedLocally() async throws {
        let pair = try await BusPair.start()
        let descriptors = try (0..<17).map { _ in try UnixFD(duplicating: 1) }
        let error = try await #require(throws: BusError.self) { _ = try await pair.call("Echo") { try descriptors.encode(to: &$0) } }
        #expect(error.message.contains("at most 16 file descriptors"))
        #expect(pair.client.isConnected)
        await pair.close()
    }

    @Test func anEnormousTimeoutIsClampedNotATrap() async throws {
        let pair = try await BusPair.start()
        let reply = try await pair.call("Echo", timeout: .seconds(Int64.max)) { try $0.write("x") }
        #expect(try reply.arguments(String.self) == "x")
        await pair.close()
    }

    @Test func rulesForTrackingASenderAreRemovedWithTheLastSubscription() async throws {
        let pair = try await BusPair.start()
        func matchRules() async throws -> Int64? {
            let reply = try await pair.client.call(.bus, path: ObjectPath("/org/freedesktop/DBus"),
                                                   interface: InterfaceName("org.freedesktop.DBus.Debug.Stats"),
                                                   method: "GetConnectionStats", arguments: pair.client.uniqueName!.rawValue)
            return try reply.arguments([String: Value].self)["MatchRules"]?.integerValue
        }
        let before = try await matchRules()
        let rule = MatchRule(sender: BusName("org.example.Watched"), interface: TestObject.interfaceName)
        var first: SignalStream? = try await pair.client.signals(matching: rule)
        var second: SignalStream? = try await pair.client.signals(matching: rule)
        #expect(try await matchRules() == before.map { $0 + 3 }, "two subscriptions and one owner rule")
        first = nil
        second = nil
        _ = (first, second)
        #expect(try await eventually { try await matchRules() == before })
        await pair.close()
    }

    /// libdbus stops reading once 63 MiB of received messages are alive; releasing them on
    /// another thread must wake the connection's loop to read on.
    /// Asked to close while it dispatches a burst, a connection closed only after the next
    /// message came: work run between two dispatched messages set the stop, and the loop then
    /// slept without looking at it (a test's `close()` waited forever). Many rounds, because
    /// the stop must land inside the burst.
    @Test func aConnectionAskedToCloseDuringABurstCloses() async throws {
        for round in 0..<40 {
            let pair = try await BusPair.start()
            let callers = Task {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<200 { group.addTask { _ = try? await pair.call("Echo") { try $0.write("burst") } } }
                }
            }
            try await Task.sleep(for: .milliseconds(round % 8))
            let closed = Atomic<Bool>(false)
            Task {
                await pair.server.close()
                closed.store(true, ordering: .relaxed)
            }
            #expect(await eventually { closed.load(ordering: .relaxed) }, "round \(round): the server's close() never returned")
            await callers.value
            await pair.client.close()
            pair.bus.stop()
        }
    }

    @Test func readingResumesWhenBigMessagesAreReleasedOnAnotherThread() async throws {
        let pair = try await BusPair.start()
        let stream = try await pair.client.signals(matching: MatchRule(interface: TestObject.interfaceName, member: "Big"))
        let blob = [UInt8](repeating: 7, count: 1 << 20)
        let total = 80
        for i in 0..<total {
            try pair.server.emit(path: TestObject.path, interface: TestObject.interfaceName, signal: "Big", arguments: UInt32(i), blob)
        }
        try await Task.sleep(for: .milliseconds(500))
        let consumer = Task { () -> Int in
            var count = 0
            for await _ in stream {
                count += 1
                if count == total { break }
            }
            return count
        }
        // Nothing else happens on the connection; if reading never resumed this would hang,
        // so give up after a generous while and let the expectation fail instead.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(60))
            consumer.cancel()
        }
        #expect(await consumer.value == total)
        watchdog.cancel()
        await pair.close()
    }
}
