import Locking

/// Tells any number of listeners that a schedule may have changed (a claim, a fetch ending,
/// a place or feed wanted or let go), so that each looks at its `nextDue` again.
///
/// Each `stream()` is one listener. It keeps at most one change unread: many changes while a
/// listener is busy count as one, as a `Wakeup` does. A listener that stops reading — its
/// task cancelled, or its stream dropped — is removed, so listeners may come and go.
public final class ScheduleChanges: Sendable {
    private struct Listeners {
        var nextID: UInt64 = 0
        var byID: [UInt64: AsyncStream<Void>.Continuation] = [:]
    }

    private let listeners = Locked(Listeners())

    public init() {}

    /// A new listener: one element per change from now on (the changes it has not read yet
    /// reduced to one). Make it before whatever it must not miss.
    public func stream() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = listeners.withLock { listeners in
            defer { listeners.nextID += 1 }
            listeners.byID[listeners.nextID] = continuation
            return listeners.nextID
        }
        continuation.onTermination = { [weak self] _ in
            self?.listeners.withLock { _ = $0.byID.removeValue(forKey: id) }
        }
        return stream
    }

    /// Tells every listener.
    public func send() {
        for continuation in listeners.withLock({ Array($0.byID.values) }) {
            continuation.yield()
        }
    }

    /// How many listeners there are.
    public var listenerCount: Int { listeners.withLock { $0.byID.count } }
}
