import Locking
import Synchronization

/// One holder at a time across suspension points, in the order they asked (an actor would
/// let a second caller in while the first awaits the network). For the sync: one run, login
/// or logout at a time. A caller whose task is cancelled while it waits leaves at once.
final class AsyncGate: Sendable {
    private struct State {
        var held = false
        /// Callers waiting, oldest first, each by a number of its own (a cancelled one leaves by it).
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextWaiter: UInt64 = 0
    }

    private let state = Locked(State())

    /// Runs `body` once the gate is free, holding it meanwhile. Throws `CancellationError`,
    /// and `body` does not run, when the task is cancelled while it waits.
    func withGate<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await enter()
        defer { leave() }
        return try await body()
    }

    /// How many callers wait for the gate.
    var waiting: Int { state.withLock { $0.waiters.count } }

    private func enter() async throws {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now = state.withLock { state -> Result<Void, any Error>? in
                    guard state.held else {
                        state.held = true
                        return .success(())
                    }
                    // Cancelled before this: the handler below ran already and found no waiter.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let left = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            left?.resume(throwing: CancellationError())
        }
    }

    /// Hands the gate to the caller that has waited longest, or frees it.
    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.waiters.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
