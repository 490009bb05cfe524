@testable import DBus
import TestHarness
import Testing

/// A closed connection is let go of by its thread before the closing returns: a program that
/// exits as soon as `close()` returns (the leak check's soak does) leaves nothing of it
/// behind. Its thread used to hold the opening's setup, and with it the connection, until
/// the thread had returned: valgrind then saw the weak-reference table of a connection still
/// alive at exit as lost.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ConnectionLifetimeTests {
    @Test func aStoppedLoopHoldsNothingOfItsConnectionWhenItSaysItIsDone() async throws {
        let bus = try PrivateBus()
        var core: ConnectionCore? = try await ConnectionCore.open(.address(bus.address, register: true))
        let loop = try #require(core).loop
        weak let opened = core
        core = nil
        // Only the loop keeps the connection now; `done` runs on its thread as it ends.
        let gone = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            loop.stop { continuation.resume(returning: opened == nil) }
        }
        #expect(gone, "the connection outlived its loop's end")
    }
}
