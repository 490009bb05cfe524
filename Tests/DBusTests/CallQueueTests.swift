@testable import DBus
import TestHarness
import Testing

/// `CallQueue`: callers in turn, each one's calls in order, a bound on one caller's calls
/// under way, and a departed caller's calls forgotten.
@Suite(.onTestThreads, .timeLimit(.hang)) struct CallQueueTests {
    /// Takes every call that may start now, marking none as under way.
    static func drain(_ queue: inout CallQueue<String>) -> [String] {
        var taken: [String] = []
        while let (sender, call) = queue.next() {
            taken.append(call)
            queue.served(sender)
        }
        return taken
    }

    @Test func callersAreServedInTurnEachInOrder() {
        var queue = CallQueue<String>()
        for n in 1...4 { queue.append("a\(n)", from: ":1.1") }
        queue.append("b1", from: ":1.2")
        queue.append("b2", from: ":1.2")
        queue.append("c1", from: ":1.3")
        #expect(Self.drain(&queue) == ["a1", "b1", "c1", "a2", "b2", "a3", "a4"])
        #expect(queue.isEmpty)
    }

    @Test func aCallerWithItsMostCallsUnderWayWaitsWhileOthersGoOn() {
        let most = CallQueue<String>.maximumInProgress
        var queue = CallQueue<String>()
        for n in 1...most + 2 { queue.append("a\(n)", from: ":1.1") }
        var started: [String] = []
        while let (sender, call) = queue.next() {
            started.append(call)
            queue.began(sender)
            queue.served(sender)
        }
        #expect(started == (1...most).map { "a\($0)" })
        queue.append("b1", from: ":1.2")
        #expect(Self.drain(&queue) == ["b1"])
        queue.ended(":1.1")
        let next = queue.next()
        #expect(next?.call == "a\(most + 1)")
        queue.began(":1.1")
        queue.served(":1.1")
        #expect(queue.next() == nil)
        #expect(queue.count == 1)
    }

    @Test func aCallerThatLeftHasItsWaitingCallsForgotten() {
        var queue = CallQueue<String>()
        for n in 1...3 { queue.append("a\(n)", from: ":1.1") }
        queue.append("b1", from: ":1.2")
        queue.dropCalls(from: ":1.1")
        #expect(queue.count == 1)
        #expect(Self.drain(&queue) == ["b1"])
    }
}
