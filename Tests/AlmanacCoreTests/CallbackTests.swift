import AlmanacCore
import Foundation
import Locking
import TestHarness
import Testing

/// A schedule listener kept in a lock is called as it was given, however often it is called
/// (`Callback`): it used to grow by two nested thunks at every call.
@Suite(.onTestThreads, .timeLimit(.hang)) struct CallbackTests {
    @Test func aScheduleListenerIsCalledThroughTheSameStackEveryTime() {
        let weather = WeatherDocument()
        let depths = Locked<[Int]>([])
        weather.whenScheduleChanges { depths.withLock { $0.append(Thread.callStackReturnAddresses.count) } }
        for _ in 0..<1_000 { _ = weather.forgetUnwanted() }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 1_000)
        #expect(seen.first == seen.last, "called through \((seen.last ?? 0) - (seen.first ?? 0)) more frames at the 1,000th call")
    }
}
