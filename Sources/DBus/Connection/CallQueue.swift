/// Method calls read from the socket but not handled yet: one queue per sender, served in
/// turn, so that a client with thousands of calls in flight delays another client's call by
/// one of its own calls, not by its whole backlog (dbus-daemon hands a connection every
/// client's messages in one stream, in arrival order).
///
/// Each sender's calls keep their order. A sender with `maximumInProgress` calls under way
/// (handlers that answer later, in a task of their own) is skipped until one of them ends.
/// Loop thread only.
struct CallQueue<Call> {
    /// How many of one sender's calls may be under way in tasks at once; its further calls
    /// wait here, and other senders' calls go first. As many as the feed reader reads at once
    /// (`RSSFeedFetcher.readsAtOnce`): `almanac podcasts refresh` asks for every feed in
    /// its own `RefreshPodcast` call, so a smaller bound would read fewer feeds at once.
    static var maximumInProgress: Int { 16 }

    private struct Waiting {
        var calls: [Call] = []
        var head = 0
        var inProgress = 0
        /// Whether the sender is in `turns` (it has calls waiting and may start one).
        var hasTurn = false

        var isEmpty: Bool { head == calls.count }

        mutating func pop() -> Call {
            let call = calls[head]
            head += 1
            if head == calls.count {
                calls.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 64, head * 2 >= calls.count {
                calls.removeFirst(head)
                head = 0
            }
            return call
        }
    }

    private var senders: [String: Waiting] = [:]
    /// Senders that may start a call, in the order they are served.
    private var turns: [String] = []
    private var nextTurn = 0

    /// How many calls wait.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Queues a call from `sender` (its unique name; "" on a peer-to-peer connection).
    mutating func append(_ call: Call, from sender: String) {
        senders[sender, default: Waiting()].calls.append(call)
        count += 1
        giveTurnIfDue(sender)
    }

    /// The next call to handle and its sender, one sender after another; `nil` when none
    /// may start now. Call `served(_:)` with the sender once it has been handled.
    mutating func next() -> (sender: String, call: Call)? {
        while nextTurn < turns.count {
            let sender = turns[nextTurn]
            nextTurn += 1
            if nextTurn >= 64, nextTurn * 2 >= turns.count {
                turns.removeFirst(nextTurn)
                nextTurn = 0
            }
            guard senders[sender]?.hasTurn == true, senders[sender]?.isEmpty == false else { continue }
            senders[sender]!.hasTurn = false
            count -= 1
            return (sender, senders[sender]!.pop())
        }
        return nil
    }

    /// The call `next()` gave for `sender` has been handled (and may be under way in a task).
    mutating func served(_ sender: String) {
        giveTurnIfDue(sender)
        forgetIfIdle(sender)
    }

    /// A call from `sender` went on in a task of its own.
    mutating func began(_ sender: String) {
        senders[sender, default: Waiting()].inProgress += 1
    }

    /// A call from `sender` that went on in a task has ended.
    mutating func ended(_ sender: String) {
        guard senders[sender] != nil else { return }
        senders[sender]!.inProgress -= 1
        giveTurnIfDue(sender)
        forgetIfIdle(sender)
    }

    /// Forgets the calls `sender` left waiting: it left the bus, so nobody would read their
    /// answers, and what they would do (add a view, say) would outlive its owner.
    mutating func dropCalls(from sender: String) {
        guard let waiting = senders[sender] else { return }
        count -= waiting.calls.count - waiting.head
        senders[sender]!.calls = []
        senders[sender]!.head = 0
        if waiting.hasTurn {
            turns.removeSubrange(..<nextTurn)
            nextTurn = 0
            turns.removeAll { $0 == sender }
            senders[sender]!.hasTurn = false
        }
        forgetIfIdle(sender)
    }

    /// Forgets every waiting call (the connection is gone).
    mutating func removeAll() {
        self = CallQueue()
    }

    private mutating func giveTurnIfDue(_ sender: String) {
        guard let waiting = senders[sender], !waiting.hasTurn, !waiting.isEmpty, waiting.inProgress < Self.maximumInProgress else { return }
        senders[sender]!.hasTurn = true
        turns.append(sender)
    }

    private mutating func forgetIfIdle(_ sender: String) {
        if let waiting = senders[sender], waiting.isEmpty, waiting.inProgress <= 0, !waiting.hasTurn {
            senders[sender] = nil
        }
    }
}
