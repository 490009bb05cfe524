import AlmanacCore
import Foundation
import Locking
import TestHarness
import Testing

/// A closure kept in a lock is called as it was given, however often it is taken out
/// (`Callback`): a bare closure grew by two nested thunks at every `withLock { $0 }`.
@Suite(.onTestThreads, .timeLimit(.hang)) struct CallbackTests {
    @Test func aCallbackKeptInALockIsCalledThroughTheSameStackEveryTime() {
        let depths = Locked<[Int]>([])
        let kept = Locked<Callback?>(Callback { depths.withLock { $0.append(Thread.callStackReturnAddresses.count) } })
        for _ in 0..<1_000 { kept.withLock { $0 }?() }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 1_000)
        #expect(seen.first == seen.last, "called through \((seen.last ?? 0) - (seen.first ?? 0)) more frames at the 1,000th call")
    }
}
