import Synchronization

/// The messages that match one subscription, as an `AsyncSequence`.
///
/// The buffer is bounded: when the consumer falls more than `bufferLimit` messages behind,
/// the **oldest** waiting messages are dropped to make room (newest kept), and
/// `droppedCount` says how many were lost. Ending the iteration (or dropping the stream)
/// removes the subscription and its match rule from the bus. The stream finishes when the
/// connection closes.
public struct SignalStream: AsyncSequence, Sendable {
    public typealias Element = Message
    public typealias Failure = Never

    let stream: AsyncStream<Message>
    let dropped: DroppedCounter

    /// How many messages were dropped because the consumer fell behind.
    public var droppedCount: Int { dropped.value.load(ordering: .relaxed) }

    public func makeAsyncIterator() -> AsyncStream<Message>.Iterator { stream.makeAsyncIterator() }

    final class DroppedCounter: Sendable {
        let value = Atomic<Int>(0)
    }
}
