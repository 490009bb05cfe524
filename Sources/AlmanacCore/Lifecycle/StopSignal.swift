/// Stops one piece of work from outside its task. A child task of a group cannot be
/// cancelled on its own, so work that something else may end (a transfer a client cancels,
/// a service of a group, GeoClue let go) runs under a signal: `run(_:)` runs it in a child
/// task and cancels that task when `stop()` is called. `stop()` may come before `run(_:)`
/// (the work is then cancelled as it starts) and more than once; a signal runs one work.
public struct StopSignal: Sendable {
    private let stopped: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    public init() {
        (stopped, continuation) = AsyncStream<Void>.makeStream()
    }

    /// Cancels the work run under this signal (now, or as it starts).
    public func stop() {
        continuation.finish()
    }

    /// Runs `operation` until it returns; when `stop()` is called or the current task is
    /// cancelled first, `operation`'s task is cancelled, and its result still awaited.
    public func run<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async -> T {
        let stopped = self.stopped
        return await withTaskGroup(of: Outcome<T>.self) { group in
            group.addTask { .finished(await operation()) }
            group.addTask {
                for await _ in stopped {}
                return .stopped
            }
            var result: T?
            for await outcome in group {
                group.cancelAll()
                if case .finished(let value) = outcome { result = value }
            }
            // The operation's child always ends with a value; the other never has one.
            return result!
        }
    }

    private enum Outcome<T: Sendable>: Sendable {
        case finished(T)
        case stopped
    }
}
