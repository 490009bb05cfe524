import Locking
import Synchronization

/// One holder at a time across suspension points, in the order they asked (an actor would
/// let a second caller in while the first awaits the network). For the sync: one run, login
/// or logout at a time.
final class AsyncGate: Sendable {
    private struct State {
        var held = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Runs `body` once the gate is free, holding it meanwhile.
    func withGate<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.held else {
                    state.held = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
