@testable import AlmanacCore
import Locking
import Synchronization
import TestHarness
import Testing

/// Changes queued, written once per commit, applied in order, each answered after the write.
@Suite(.onTestThreads, .timeLimit(.hang))
struct GroupCommitTests {
    /// A recording commit body: the batches it got, and a switch that makes the write fail.
    final class Recorder: Sendable {
        let batches = Locked<[[Int]]>([])
        let failing = Atomic<Bool>(false)
        struct DiskFull: Error {}

        func commit(_ items: [Int]) -> [Result<UInt64, any Error>] {
            batches.withLock { $0.append(items) }
            if failing.load(ordering: .relaxed) { return items.map { _ in .failure(DiskFull()) } }
            return items.map { .success(UInt64($0)) }
        }
    }

    @Test func queuedChangesAreAnsweredOnlyByTheCommitThatWritesThem() {
        let recorder = Recorder()
        let queue = GroupCommit<Int> { recorder.commit($0) }
        let answers = Locked<[Int: UInt64]>([:])
        for item in 1...5 {
            queue.enqueue(item) { result in answers.withLock { $0[item] = try? result.get() } }
        }
        #expect(answers.withLock { $0.isEmpty })
        #expect(recorder.batches.withLock { $0.isEmpty })
        queue.commit()
        #expect(recorder.batches.withLock { $0 } == [[1, 2, 3, 4, 5]])
        #expect(answers.withLock { $0 } == [1: 1, 2: 2, 3: 3, 4: 4, 5: 5])
        queue.commit()
        #expect(recorder.batches.withLock { $0.count } == 1, "an empty queue writes nothing")
    }

    @Test func aFailedWriteAnswersEveryChangeInItWithTheError() throws {
        let recorder = Recorder()
        recorder.failing.store(true, ordering: .relaxed)
        let queue = GroupCommit<Int> { recorder.commit($0) }
        let failures = Atomic<Int>(0)
        for item in 1...3 {
            queue.enqueue(item) { result in
                if case .failure(let error) = result, error is Recorder.DiskFull { failures.add(1, ordering: .relaxed) }
            }
        }
        queue.commit()
        #expect(failures.load(ordering: .relaxed) == 3)
        recorder.failing.store(false, ordering: .relaxed)
        #expect(try queue.commitNow(7) == 7)
    }

    @Test func commitNowWritesWhatWasQueuedBeforeItInTheSameBatch() throws {
        let recorder = Recorder()
        let queue = GroupCommit<Int> { recorder.commit($0) }
        queue.enqueue(1) { _ in }
        queue.enqueue(2) { _ in }
        #expect(try queue.commitNow(3) == 3)
        #expect(recorder.batches.withLock { $0 } == [[1, 2, 3]])
    }

    @Test func aFullQueueCommitsWithoutWaitingForTheBurstToEnd() {
        let recorder = Recorder()
        let queue = GroupCommit<Int> { recorder.commit($0) }
        for item in 0..<(GroupCommit<Int>.maximumBatch + 1) { queue.enqueue(item) { _ in } }
        #expect(recorder.batches.withLock { $0.map(\.count) } == [GroupCommit<Int>.maximumBatch])
    }

    @Test func aCommitAskedForFromInsideACommitIsTakenByIt() {
        let recorder = Recorder()
        let queue = GroupCommit<Int> { recorder.commit($0) }
        let answered = Locked<[Int]>([])
        queue.enqueue(1) { _ in
            answered.withLock { $0.append(1) }
            // An answer that submits again: committed by the commit under way, not a deadlock.
            queue.enqueue(2) { _ in answered.withLock { $0.append(2) } }
            queue.commit()
        }
        queue.commit()
        #expect(answered.withLock { $0 } == [1, 2])
        #expect(recorder.batches.withLock { $0 } == [[1], [2]])
    }

    @Test func changesQueuedFromManyThreadsAreCommittedInTheOrderEachQueuedThem() async {
        let recorder = Recorder()
        let queue = GroupCommit<Int> { recorder.commit($0) }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask { for n in 0..<50 { queue.enqueue(thread * 1000 + n) { _ in } } }
            }
        }
        queue.commit()
        let written = recorder.batches.withLock { $0.flatMap { $0 } }
        #expect(written.count == 400)
        for thread in 0..<8 {
            #expect(written.filter { $0 / 1000 == thread } == (0..<50).map { thread * 1000 + $0 })
        }
    }

    @Test func commitsFromManyThreadsKeepEveryChangeOnceAndInOrderPerThread() async {
        let recorder = Recorder()
        let queue = GroupCommit<Int> { recorder.commit($0) }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    for n in 0..<100 { _ = try? queue.commitNow(thread * 1000 + n) }
                }
            }
        }
        let written = recorder.batches.withLock { $0.flatMap { $0 } }
        #expect(written.count == 800)
        #expect(Set(written).count == 800)
        for thread in 0..<8 {
            let own = written.filter { $0 / 1000 == thread }
            #expect(own == own.sorted())
        }
    }
}
