import Synchronization

/// One `signals(matching:)` subscription: its rule and the stream it feeds.
final class Subscription: Sendable {
    let rule: MatchRule
    let continuation: AsyncStream<Message>.Continuation
    let dropped: SignalStream.DroppedCounter

    init(rule: MatchRule, continuation: AsyncStream<Message>.Continuation, dropped: SignalStream.DroppedCounter) {
        self.rule = rule
        self.continuation = continuation
        self.dropped = dropped
    }

    func deliver(_ message: Message) {
        if case .dropped = continuation.yield(message) {
            dropped.value.add(1, ordering: .relaxed)
        }
    }
}
