/// The error `withTimeLimit` throws when its operation took too long (and was cancelled).
public struct TimeLimitExceeded: Error, CustomStringConvertible {
    public let limit: Duration
    public var description: String { "no answer within \(limit)" }
}

/// Runs `operation` in a child task and cancels it when `limit` passes first; then throws
/// `TimeLimitExceeded` once the operation has ended. For work that ends when cancelled (a
/// bus call, a sleep): a time limit on a whole conversation with a peer, where each call
/// has its own. Cancelling the caller cancels the operation too.
public func withTimeLimit<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await RealTime.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        // The first to finish decides: the operation's value or error, or the time.
        guard let first = try await group.next(), let value = first else { throw TimeLimitExceeded(limit: limit) }
        return value
    }
}
