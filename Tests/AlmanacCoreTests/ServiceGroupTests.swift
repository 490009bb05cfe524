@testable import AlmanacCore
import Foundation
import Locking
import Logging
import TestHarness
import Testing

/// `ServiceGroup`: services start in order, stop in reverse, and one that fails ends the
/// group; stopping has a deadline, past which the group goes on without what did not stop.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ServiceGroupTests {
    /// What the services did, in order: a fake of our own `Service`.
    final class Journal: Sendable {
        let entries = Locked<[String]>([])
        func note(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    struct Recording: Service {
        let name: String
        let journal: Journal
        var failsAfter: Duration?
        var failsToPrepare = false
        /// Getting ready takes until cancelled (and, with `ignoresCancellation`, until `gate` opens).
        var slowToPrepare = false
        /// Stuck where cancellation does not reach: it ends only when `gate` opens.
        var ignoresCancellation = false
        var gate = Gate()

        struct Failure: Error, Equatable {
            let name: String
        }

        func prepare() async throws {
            if failsToPrepare { throw Failure(name: name) }
            journal.note("prepare \(name)")
            if slowToPrepare, ignoresCancellation { await gate.wait() } else if slowToPrepare { await Task.untilCancelled() }
        }

        func run() async throws {
            journal.note("run \(name)")
            if ignoresCancellation {
                await gate.wait()
                journal.note("stop \(name) at last")
                return
            }
            if let failsAfter {
                try? await Task.sleep(for: failsAfter)
                journal.note("fail \(name)")
                throw Failure(name: name)
            }
            await Task.untilCancelled()
            // Slow to stop: the one before must still wait for it.
            try? await Task.sleep(for: .milliseconds(10))
            journal.note("stop \(name)")
        }
    }

    @Test func servicesStartInOrderAndStopInReverseOnShutdown() async throws {
        let journal = Journal()
        let group = ServiceGroup(["a", "b", "c"].map { Recording(name: $0, journal: journal) }, logger: Logger(label: "test"))
        async let running = group.run()
        try await group.started()
        #expect(journal.all.filter { $0.hasPrefix("prepare") } == ["prepare a", "prepare b", "prepare c"])
        #expect(await eventually { journal.all.filter { $0.hasPrefix("run") }.count == 3 })
        group.shutdown()
        #expect(try await running == [])
        #expect(journal.all.filter { $0.hasPrefix("stop") } == ["stop c", "stop b", "stop a"])
    }

    @Test func oneFailingServiceEndsTheGroupAndTheOthersStop() async throws {
        let journal = Journal()
        let group = ServiceGroup([Recording(name: "a", journal: journal), Recording(name: "b", journal: journal, failsAfter: .milliseconds(20)),
                                  Recording(name: "c", journal: journal)], logger: Logger(label: "test"))
        await #expect(throws: Recording.Failure(name: "b")) { try await group.run() }
        let entries = journal.all
        #expect(entries.filter { $0.hasPrefix("stop") } == ["stop c", "stop a"])
        #expect(entries.firstIndex(of: "fail b")! < entries.firstIndex(of: "stop c")!)
    }

    @Test func aServiceThatCannotGetReadyStopsThoseBeforeIt() async throws {
        let journal = Journal()
        let group = ServiceGroup([Recording(name: "a", journal: journal), Recording(name: "b", journal: journal, failsToPrepare: true),
                                  Recording(name: "c", journal: journal)], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        await #expect(throws: Recording.Failure(name: "b")) { try await group.started() }
        await #expect(throws: Recording.Failure(name: "b")) { try await running.value }
        #expect(!journal.all.contains("prepare c") && journal.all.contains("stop a"))
    }

    /// A gate a stuck service waits at, opened by the test once it has seen what it wanted
    /// (so that no task is left waiting after the test). Waiting ignores cancellation.
    final class Gate: Sendable {
        private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let open = state.withLock { state -> Bool in
                    if !state.open { state.waiters.append(continuation) }
                    return state.open
                }
                if open { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.open = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// One service stuck where cancellation does not reach it: the group stops the others
    /// (those started before it too, after half the deadline), logs, and returns its name once
    /// the deadline has passed, while it is still stuck.
    @Test func aServiceThatDoesNotStopIsLeftBehindAtTheDeadline() async throws {
        let journal = Journal()
        let log = RecordingLogHandler()
        let stuck = Recording(name: "stuck", journal: journal, ignoresCancellation: true)
        let group = ServiceGroup([Recording(name: "a", journal: journal), stuck, Recording(name: "c", journal: journal)],
                                 stopDeadline: .milliseconds(400), logger: log.logger)
        async let running = group.run()
        try await group.started()
        #expect(await eventually { journal.all.filter { $0.hasPrefix("run") }.count == 3 })
        group.shutdown()
        let left = try await running
        #expect(left == ["stuck"])
        #expect(group.running == ["stuck"], "it is still running: the group did not wait for it")
        #expect(journal.all.filter { $0.hasPrefix("stop") } == ["stop c", "stop a"])
        #expect(log.messages(at: .warning).contains { $0.contains("did not stop") })
        stuck.gate.open()
        #expect(await eventually { group.running.isEmpty })
        #expect(journal.all.last == "stop stuck at last")
    }

    /// A stop while a service gets ready: that one is cancelled, none after it starts, those
    /// before it stop; waiting for the group to be ready ends with `CancellationError`.
    @Test func aStopWhileAServiceGetsReadyCancelsItAndStartsNoOther() async throws {
        let journal = Journal()
        let group = ServiceGroup([Recording(name: "a", journal: journal), Recording(name: "b", journal: journal, slowToPrepare: true),
                                  Recording(name: "c", journal: journal)], logger: Logger(label: "test"))
        async let running = group.run()
        #expect(await eventually { journal.all.contains("prepare b") })
        group.shutdown()
        #expect(try await running == [])
        await #expect(throws: CancellationError.self) { try await group.started() }
        #expect(!journal.all.contains("prepare c") && !journal.all.contains("run b") && journal.all.contains("stop a"))
    }

    /// Getting ready stuck where cancellation does not reach: the deadline ends the wait too.
    @Test func aServiceStuckGettingReadyIsLeftBehindAtTheDeadline() async throws {
        let journal = Journal()
        let stuck = Recording(name: "stuck", journal: journal, slowToPrepare: true, ignoresCancellation: true)
        let group = ServiceGroup([Recording(name: "a", journal: journal), stuck], stopDeadline: .milliseconds(400), logger: Logger(label: "test"))
        async let running = group.run()
        #expect(await eventually { journal.all.contains("prepare stuck") })
        group.shutdown()
        #expect(try await running == ["stuck"])
        #expect(journal.all.contains("stop a"))
        stuck.gate.open()
        #expect(await eventually { group.running.isEmpty })
    }
}
