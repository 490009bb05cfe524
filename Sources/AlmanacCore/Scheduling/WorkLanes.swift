import Dispatch
import Glibc
import Locking

/// A few threads of their own for blocking work that may take a while (a search, up to its
/// time budget), so that it never holds one of the threads of Swift's shared pool (as many
/// as the cores, and every task needs them): a caller awaits its turn without holding a
/// thread. At most `count` pieces run at once, the rest wait in order. The threads start
/// when first needed, stay for the process, sleep while there is nothing to do, and run at
/// a lower priority (nice +10 by default): on a busy machine the daemon's other work, a
/// write a client waits for, is not behind them for a core.
public final class WorkLanes: Sendable {
    private struct Lanes {
        var waiting: [@Sendable () -> Void] = []
        var threads = 0
        var idle = 0
    }

    private let lanes = Locked(Lanes())
    /// Signalled once per piece of work posted; each thread takes one per wait.
    private let posted = DispatchSemaphore(value: 0)
    private let count: Int
    private let niceness: Int32

    /// `count` threads at most, each `niceness` above the nice value of the thread that
    /// starts it.
    public init(count: Int, niceness: Int32 = 10) {
        self.count = max(1, count)
        self.niceness = niceness
    }

    /// Runs `work` on a lane's thread and returns what it returns (or throws what it throws).
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            post { continuation.resume(with: Result { try work() }) }
        }
    }

    private func post(_ work: @escaping @Sendable () -> Void) {
        let start = lanes.withLock { lanes -> Bool in
            lanes.waiting.append(work)
            guard lanes.idle == 0, lanes.threads < count else { return false }
            lanes.threads += 1
            return true
        }
        if start, !startThread() {
            // No thread to be had: the work runs where it was posted rather than never.
            lanes.withLock { $0.threads -= 1 }
            takeAndRun()
            return
        }
        posted.signal()
    }

    private func startThread() -> Bool {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        // The thread keeps the lanes (retained here, taken over there) for as long as it runs.
        let started = pthread_create(&thread, nil, { raw in
            Unmanaged<WorkLanes>.fromOpaque(raw!).takeRetainedValue().loop()
        }, context)
        guard started == 0 else {
            Unmanaged<WorkLanes>.fromOpaque(context).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    private func loop() -> Never {
        // Linux keeps a nice value per thread: this one only, `niceness` above the one it
        // started with (inherited from the thread that made it).
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        _ = setpriority(which, 0, min(19, getpriority(which, 0) + niceness))
        while true {
            lanes.withLock { $0.idle += 1 }
            posted.wait()
            lanes.withLock { $0.idle -= 1 }
            takeAndRun()
        }
    }

    private func takeAndRun() {
        let work = lanes.withLock { lanes in lanes.waiting.isEmpty ? nil : lanes.waiting.removeFirst() }
        work?()
    }
}
