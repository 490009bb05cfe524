@testable import AlmanacServices
import Locking
import Synchronization
import TestHarness
import Testing

/// `FetchLimiter`: so many fetches at once, so many from one host, the others in order.
@Suite(.onTestThreads, .timeLimit(.hang)) struct FetchLimiterTests {
    @Test func aFullHostWaitsWhileOtherHostsGoAhead() async {
        let limiter = FetchLimiter(width: 3, perHost: 2)
        await limiter.acquire(host: "a")
        await limiter.acquire(host: "a")
        let third = Locked(false)
        let waiting = Task {
            await limiter.acquire(host: "a")
            third.withLock { $0 = true }
        }
        // Another host is let in at once, though a fetch from "a" came first.
        await limiter.acquire(host: "b")
        try? await Task.sleep(for: .milliseconds(50))
        #expect(!third.withLock { $0 }, "a third fetch from one host started")
        // Full overall now (3): freeing "a" lets the waiter in.
        await limiter.release(host: "a")
        await waiting.value
        #expect(third.withLock { $0 })
    }

    @Test func hostsAreReadFromURLs() {
        #expect(FetchLimiter.host(of: "https://Feeds.Example.com:8443/show.xml?x=1") == "feeds.example.com:8443")
        #expect(FetchLimiter.host(of: "http://user:secret@host.example/feed") == "host.example")
        #expect(FetchLimiter.host(of: "not a url") == nil && FetchLimiter.host(of: "file:///etc/passwd") == nil)
    }
}
