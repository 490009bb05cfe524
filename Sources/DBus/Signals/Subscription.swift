import Synchronization

/// One subscription (`signals(matching:)` or `onSignals(matching:)`): its rule and where the
/// messages it matches go, on the loop thread.
final class Subscription: Sendable {
    enum Sink: Sendable {
        /// Into a `SignalStream`'s buffer.
        case stream(AsyncStream<Message>.Continuation, SignalStream.DroppedCounter)
        /// To a handler, called on the loop thread (it must not block).
        case handler(@Sendable (Message) -> Void)
    }

    let rule: MatchRule
    let sink: Sink

    init(rule: MatchRule, sink: Sink) {
        self.rule = rule
        self.sink = sink
    }

    func deliver(_ message: Message) {
        switch sink {
        case .stream(let continuation, let dropped):
            if case .dropped = continuation.yield(message) {
                dropped.value.add(1, ordering: .relaxed)
            }
        case .handler(let handler):
            handler(message)
        }
    }

    /// The connection is gone: a stream finishes; a handler is simply not called again.
    func finish() {
        if case .stream(let continuation, _) = sink { continuation.finish() }
    }
}
