import Foundation

/// The threads tests run on: a `TaskExecutor` that never makes a job wait for a thread. A
/// job finds an idle thread or gets a new one; a thread idle for 10 s ends.
///
/// Swift's global executor has one thread per core, two on a small machine. A test that
/// blocks one (waiting for a child process, a fixture server's first line, `waitpid`) or
/// parses for seconds would otherwise hold up every task queued behind it, among them the
/// code under test and the other tests' wake-ups, so a busy machine turned into time limits
/// exceeded. Test bodies run here instead (`.onTestThreads`, on every suite): blocking one
/// costs a thread of its own, and the global executor is left to the code under test.
public final class TestThreads: TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable: `jobs`, `idle` and `threads` are reached only with `condition` locked.
    /// The one pool every test shares.
    public static let shared = TestThreads()

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var next = 0
    private var idle = 0
    private var threads = 0
    /// The threads now in the pool, as `pthread_self()` gives them.
    private var members: Set<UInt> = []
    /// How long a thread waits for work before it ends.
    private let idleLifetime: TimeInterval = 10

    private init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        let waiting = jobs.count - next
        if waiting <= idle {
            condition.signal()
        } else {
            threads += 1
            let thread = Thread { [self] in work() }
            thread.stackSize = 8 << 20
            thread.start()
        }
        condition.unlock()
    }

    /// The calling thread, as a number, when it is one of the pool's; otherwise `nil`.
    public var currentThread: UInt? {
        let current = UInt(pthread_self())
        condition.lock()
        defer { condition.unlock() }
        return members.contains(current) ? current : nil
    }

    private func work() {
        let me = UInt(pthread_self())
        condition.lock()
        members.insert(me)
        defer {
            members.remove(me)
            condition.unlock()
        }
        while true {
            while next == jobs.count {
                idle += 1
                let woken = condition.wait(until: Date(timeIntervalSinceNow: idleLifetime))
                idle -= 1
                if !woken, next == jobs.count {
                    threads -= 1
                    return
                }
            }
            let job = jobs[next]
            next += 1
            if next == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                next = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            condition.lock()
        }
    }
}
