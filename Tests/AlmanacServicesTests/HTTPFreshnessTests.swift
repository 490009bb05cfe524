@testable import AlmanacServices
import Foundation
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct HTTPFreshnessTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func maxAgeThenExpiresThenNothing() {
        #expect(HTTPFreshness.freshUntil(["cache-control": "public, max-age=600"], now: now) == now.addingTimeInterval(600))
        #expect(HTTPFreshness.freshUntil(["cache-control": "s-maxage=\"60\""], now: now) == now.addingTimeInterval(60))
        #expect(HTTPFreshness.freshUntil(["cache-control": "max-age=999999999"], now: now) == now.addingTimeInterval(7 * 86_400))
        #expect(HTTPFreshness.freshUntil(["cache-control": "no-cache, max-age=600"], now: now) == nil)
        #expect(HTTPFreshness.freshUntil(["cache-control": "max-age=-5"], now: now) == nil)
        #expect(HTTPFreshness.freshUntil(["expires": "Fri, 15 Jan 2027 09:00:00 GMT"], now: now) == Date(timeIntervalSince1970: 1_800_003_600))
        #expect(HTTPFreshness.freshUntil(["expires": "0"], now: now) == nil)
        #expect(HTTPFreshness.freshUntil(["expires": "Thu, 01 Jan 1970 00:00:00 GMT"], now: now) == nil)
        #expect(HTTPFreshness.freshUntil([:], now: now) == nil)
    }
}
