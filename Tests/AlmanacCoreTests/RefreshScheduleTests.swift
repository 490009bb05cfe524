import AlmanacCore
import Foundation
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct RefreshScheduleTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = RefreshSchedule.Policy(interval: 900, firstRetry: 30, longestRetry: 3600)

    @Test func newPlacesAreDueAtOnceAndThenEveryInterval() {
        var schedule = RefreshSchedule(policy: policy)
        #expect(schedule.take(["Berlin", "Paris", "Berlin"], now: start) == ["Berlin", "Paris"])
        schedule.succeeded("Berlin", now: start)
        schedule.succeeded("Paris", now: start)
        #expect(schedule.take(["Berlin", "Paris"], now: start.addingTimeInterval(899)).isEmpty)
        #expect(schedule.nextDue(among: ["Berlin"], now: start) == start.addingTimeInterval(900))
        #expect(schedule.take(["Berlin", "Paris"], now: start.addingTimeInterval(900)) == ["Berlin", "Paris"])
    }

    @Test func aPlaceBeingFetchedIsNotHandedOutTwice() {
        var schedule = RefreshSchedule(policy: policy)
        #expect(schedule.take(["Oslo"], now: start) == ["Oslo"])
        // A second view of Oslo arrives mid-fetch: it shares the fetch under way.
        #expect(schedule.take(["Oslo"], now: start).isEmpty)
        #expect(schedule.take(["Oslo"], now: start, force: true).isEmpty)
        #expect(schedule.nextDue(among: ["Oslo"], now: start) == nil)
        schedule.succeeded("Oslo", now: start)
        #expect(schedule.take(["Oslo"], now: start, force: true) == ["Oslo"])
    }

    @Test func failuresBackOffExponentiallyWithJitterUpToTheCap() {
        // Without jitter (0) a delay is half its ceiling; with full jitter (1) the whole of it.
        let lows = (1...9).map { RefreshSchedule.retryDelay(afterFailures: $0, policy: policy, jitter: 0) }
        let highs = (1...9).map { RefreshSchedule.retryDelay(afterFailures: $0, policy: policy, jitter: 1) }
        #expect(highs == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600])
        #expect(lows == highs.map { $0 / 2 })
        #expect(RefreshSchedule.retryDelay(afterFailures: 1_000_000, policy: policy, jitter: 0.5) == 2700)

        var schedule = RefreshSchedule(policy: policy)
        _ = schedule.take(["Lima"], now: start)
        let first = schedule.failed("Lima", now: start, jitter: 1)
        #expect(first == 30 && schedule.failures(of: "Lima") == 1)
        #expect(schedule.take(["Lima"], now: start.addingTimeInterval(29)).isEmpty)
        #expect(schedule.take(["Lima"], now: start.addingTimeInterval(30)) == ["Lima"])
        #expect(schedule.failed("Lima", now: start.addingTimeInterval(30), jitter: 1) == 60)
        // One success and the backoff is forgotten.
        _ = schedule.take(["Lima"], now: start.addingTimeInterval(90))
        schedule.succeeded("Lima", now: start.addingTimeInterval(90))
        #expect(schedule.failures(of: "Lima") == 0)
        #expect(schedule.nextDue(among: ["Lima"], now: start) == start.addingTimeInterval(990))
    }

    @Test func retriesNeverWaitLongerThanTheCapNorStartLaterThanTheInterval() {
        let quick = RefreshSchedule.Policy(interval: 0.5, firstRetry: 30, longestRetry: 0.1)
        #expect(quick.firstRetry == 0.5 && quick.longestRetry == 0.5)
        #expect(RefreshSchedule.retryDelay(afterFailures: 5, policy: quick, jitter: 1) == 0.5)
        let nonsense = RefreshSchedule.Policy(interval: -3)
        #expect(nonsense.interval > 0 && nonsense.firstRetry > 0)
    }

    @Test func placesNoLongerWantedAreForgottenWithTheirBackoff() {
        var schedule = RefreshSchedule(policy: policy)
        _ = schedule.take(["Rome", "Nice"], now: start)
        schedule.failed("Rome", now: start, jitter: 0)
        schedule.succeeded("Nice", now: start)
        schedule.keep(only: ["Nice"])
        #expect(schedule.failures(of: "Rome") == 0)
        #expect(schedule.take(["Rome"], now: start) == ["Rome"])
    }

    /// A catch-up makes due now what was fetched before the machine went away (its backoff
    /// too), and leaves alone what was fetched since and what is being fetched.
    @Test func aCatchUpMakesDueWhatWasFetchedBeforeTheMachineWentAway() {
        var schedule = RefreshSchedule(policy: policy)
        _ = schedule.take(["Berlin", "Oslo", "Rome", "Nice"], now: start)
        schedule.succeeded("Berlin", now: start)
        schedule.failed("Rome", now: start, jitter: 0)
        schedule.failed("Rome", now: start, jitter: 0)
        let away = start.addingTimeInterval(60)
        let back = start.addingTimeInterval(7_200)
        schedule.succeeded("Oslo", now: back)
        schedule.dueNow(["Berlin", "Oslo", "Rome", "Nice", "Paris"], now: back, unlessSucceededSince: away)
        #expect(schedule.take(["Berlin", "Oslo", "Rome", "Nice", "Paris"], now: back) == ["Berlin", "Rome", "Paris"])
        #expect(schedule.failures(of: "Rome") == 2, "its backoff is skipped, not forgotten")
        schedule.succeeded("Oslo", now: back)
        schedule.dueNow(["Oslo"], now: back, unlessSucceededSince: nil)
        #expect(schedule.take(["Oslo"], now: back) == ["Oslo"], "since when not known: every one")
    }
}
