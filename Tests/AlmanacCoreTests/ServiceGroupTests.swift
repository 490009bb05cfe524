@testable import AlmanacCore
import Foundation
import Locking
import TestHarness
import Testing

/// `ServiceGroup`: services start in order, stop in reverse, and one that fails ends the group.
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

        struct Failure: Error, Equatable {
            let name: String
        }

        func prepare() async throws {
            if failsToPrepare { throw Failure(name: name) }
            journal.note("prepare \(name)")
        }

        func run() async throws {
            journal.note("run \(name)")
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
        let group = ServiceGroup(["a", "b", "c"].map { Recording(name: $0, journal: journal) })
        async let running: Void = group.run()
        try await group.started()
        #expect(journal.all.filter { $0.hasPrefix("prepare") } == ["prepare a", "prepare b", "prepare c"])
        while journal.all.filter({ $0.hasPrefix("run") }).count < 3 { try await Task.sleep(for: .milliseconds(1)) }
        group.shutdown()
        try await running
        #expect(journal.all.filter { $0.hasPrefix("stop") } == ["stop c", "stop b", "stop a"])
    }

    @Test func oneFailingServiceEndsTheGroupAndTheOthersStop() async throws {
        let journal = Journal()
        let group = ServiceGroup([Recording(name: "a", journal: journal), Recording(name: "b", journal: journal, failsAfter: .milliseconds(20)),
                                  Recording(name: "c", journal: journal)])
        await #expect(throws: Recording.Failure(name: "b")) { try await group.run() }
        let entries = journal.all
        #expect(entries.filter { $0.hasPrefix("stop") } == ["stop c", "stop a"])
        #expect(entries.firstIndex(of: "fail b")! < entries.firstIndex(of: "stop c")!)
    }

    @Test func aServiceThatCannotGetReadyStopsThoseBeforeIt() async throws {
        let journal = Journal()
        let group = ServiceGroup([Recording(name: "a", journal: journal), Recording(name: "b", journal: journal, failsToPrepare: true),
                                  Recording(name: "c", journal: journal)])
        let running = Task { try await group.run() }
        await #expect(throws: Recording.Failure(name: "b")) { try await group.started() }
        await #expect(throws: Recording.Failure(name: "b")) { try await running.value }
        #expect(!journal.all.contains("prepare c") && journal.all.contains("stop a"))
    }
}
