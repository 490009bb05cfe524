@testable import AlmanacCore
import AlmanacModels
import Foundation
import TestHarness
import Testing

/// `FeedStates`, the podcasts document's one value for its feeds between reads: each step of
/// a read changes all it touches of a feed at once.
@Suite(.onTestThreads, .timeLimit(.hang)) struct FeedStatesTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = RefreshSchedule.Policy(interval: 3_600, firstRetry: 60, longestRetry: 86_400)

    @Test func aSuccessKeepsTheServersFreshnessAndSetsTheNextDueInOneStep() {
        var feeds = FeedStates(policy: policy, backoffs: [:])
        #expect(feeds.schedule.take(["a"], now: start) == ["a"])
        let ended = feeds.succeeded("a", now: start, bodyCadence: .some(7_200), freshUntil: nil, ownInterval: nil, floor: 900, ceiling: 86_400)
        #expect(!ended)
        #expect(feeds.feeds["a"]?.freshUntil == start.addingTimeInterval(7_200))
        #expect(feeds.schedule.due(of: "a") == start.addingTimeInterval(7_200))
        // A `304` has no body: the last full read's cadence stands.
        #expect(feeds.schedule.take(["a"], now: start.addingTimeInterval(7_200)) == ["a"])
        _ = feeds.succeeded("a", now: start.addingTimeInterval(7_200), bodyCadence: nil, freshUntil: nil, ownInterval: nil, floor: 900, ceiling: 86_400)
        #expect(feeds.schedule.due(of: "a") == start.addingTimeInterval(14_400))
        // Its own interval replaces the server's word for when it is due.
        _ = feeds.succeeded("a", now: start, bodyCadence: nil, freshUntil: nil, ownInterval: 600, floor: 900, ceiling: 86_400)
        #expect(feeds.schedule.due(of: "a") == start.addingTimeInterval(600))
    }

    @Test func aBackoffKeptInTheArchiveEndsWithTheNextSuccessOnce() {
        var feeds = FeedStates(policy: policy, backoffs: ["a": FeedBackoff(failures: 2, retryAt: start)])
        #expect(feeds.schedule.failures(of: "a") == 2 && feeds.feeds["a"]?.backoffKept == true)
        let backoff = feeds.failed("a", now: start, jitter: 1)
        #expect(backoff.failures == 3 && backoff.retryAt > start)
        let first = feeds.succeeded("a", now: start, bodyCadence: nil, freshUntil: nil, ownInterval: nil, floor: 900, ceiling: 86_400)
        let second = feeds.succeeded("a", now: start, bodyCadence: nil, freshUntil: nil, ownInterval: nil, floor: 900, ceiling: 86_400)
        #expect(first && !second)
        #expect(feeds.schedule.failures(of: "a") == 0)
    }

    @Test func aRestartFromTheArchiveKeepsTheReadsEndedAndForgetsTheRest() {
        var feeds = FeedStates(policy: policy, backoffs: [:])
        _ = feeds.readEnded("a", failure: "HTTP 404")
        _ = feeds.succeeded("a", now: start, bodyCadence: .some(7_200), freshUntil: nil, ownInterval: nil, floor: 900, ceiling: 86_400)
        _ = feeds.failed("b", now: start, jitter: 1)
        feeds.restart(backoffs: ["c": FeedBackoff(failures: 1, retryAt: start)])
        #expect(feeds.reads(of: "a") == (1, "HTTP 404"))
        #expect(feeds.feeds["a"]?.freshUntil == nil && feeds.feeds["a"]?.cadence == nil)
        #expect(feeds.schedule.due(of: "a") == nil && feeds.schedule.failures(of: "b") == 0)
        #expect(feeds.feeds["b"]?.backoffKept != true && feeds.feeds["c"]?.backoffKept == true)
    }
}
