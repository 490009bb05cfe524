import DBus
import Locking

/// What each media player said that `MPRISListener` has not handled yet: one queue per
/// player (by unique name), filled on the connection's thread as the connection reads — its
/// name's arrival, its signals, its leaving, in that order — and emptied by the player's own
/// worker (`take`). So a player that floods, or that does not answer, holds up nobody: not
/// the connection, which only appends and drops, nor another player. The listener hears a
/// player's signals only once it has answered (a match rule of its own), so the signals of
/// one that does not answer are not even routed to the daemon.
///
/// Bounded, because a player is anyone who takes an `org.mpris.MediaPlayer2.*` name (every
/// Flatpak media app may) and each signal it sends stays in libdbus's count of received
/// messages while it waits (past 63 MiB the connection stops reading, for every client):
/// at most `signalLimit` signals and `byteLimit` bytes wait per player, `totalByteLimit`
/// for all of them; past that a player's oldest waiting signals go (a signal over
/// `byteLimit` is not kept at all) and its worker reads the player afresh instead
/// (`Batch.dropped`). Only a player's own `PropertiesChanged` and `Seeked` are kept; the
/// signals of a sender that is no player, or of a player keeping quiet, never are.
///
/// A player that did not answer in time keeps quiet (`silent`): its signals are dropped,
/// nothing is asked of it for `firstQuiet`, doubling with each silence in a row up to
/// `longestQuiet`, and then it is asked again (`Event.again`, which `retry` schedules).
final class PlayerInbox: Sendable {
    /// The most signals of one player waiting for its worker.
    static let signalLimit = 16
    /// The most bytes of one player's signals waiting (real players' `PropertiesChanged` take
    /// a few KiB; the whole `Metadata` of a track with its art as a `data:` URL, a few hundred).
    static let byteLimit = 1 << 20
    /// The most bytes of all players' signals waiting: an eighth of libdbus's limit.
    static let totalByteLimit = 8 << 20
    /// How long a player that did not answer is left alone, the first time in a row…
    static let firstQuiet: Duration = .seconds(5)
    /// …and at most.
    static let longestQuiet: Duration = .seconds(300)

    enum Event: Sendable {
        /// It took an `org.mpris.MediaPlayer2.*` name.
        case appeared
        case signal(Message)
        /// It let its name go or left the bus.
        case vanished
        /// Its quiet spell is over: it is asked again.
        case again
    }

    /// What the listener's `run` is asked to do for a player.
    enum Ready: Sendable {
        /// Start a worker: something waits for the player.
        case work(BusName)
        /// Post `.again` to the player after this long.
        case retry(BusName, after: Duration)
    }

    /// What a worker takes: the events waiting, in order, and whether signals were dropped
    /// since it last took (the player is then read afresh).
    struct Batch: Sendable {
        var events: [Event]
        var dropped: Bool
    }

    private struct Queue {
        var events: [(event: Event, bytes: Int)] = []
        var bytes = 0
        var dropped = false
        /// A worker is emptying it.
        var working = false
        /// Appeared and not vanished: its signals are taken.
        var player = false
        /// Did not answer: its signals are dropped and nothing is asked of it until `again`.
        var quiet = false
        var silences = 0

        var signals: Int { events.count { if case .signal = $0.event { true } else { false } } }

        /// Drops the oldest waiting signal; its size, or `nil` when none waits.
        mutating func dropOldestSignal() -> Int? {
            guard let index = events.firstIndex(where: { if case .signal = $0.event { true } else { false } }) else { return nil }
            let bytes = events.remove(at: index).bytes
            self.bytes -= bytes
            dropped = true
            return bytes
        }
    }

    private struct State {
        var queues: [BusName: Queue] = [:]
        var bytes = 0
    }

    private let state = Locked(State())
    /// The players that have something waiting and no worker (the listener starts one each),
    /// and the quiet spells to wait out.
    let ready: (stream: AsyncStream<Ready>, continuation: AsyncStream<Ready>.Continuation)

    init() {
        ready = AsyncStream.makeStream(of: Ready.self)
    }

    /// `owner` took an `org.mpris.MediaPlayer2.*` name: it is a player, asked what it plays first.
    func appeared(_ owner: BusName) {
        post(.appeared, to: owner) { $0.player = true }
    }

    /// `owner` let such a name go (or left the bus).
    func vanished(_ owner: BusName) {
        post(.vanished, to: owner) { $0.player = false }
    }

    /// `owner`'s quiet spell (`silent`) is over: it is asked again.
    func again(_ owner: BusName) {
        let player = state.withLock { $0.queues[owner]?.player ?? false }
        if player { post(.again, to: owner) { $0.quiet = false } }
    }

    /// Has `again` told after `quiet` (the listener waits it out).
    func retry(_ owner: BusName, after quiet: Duration) {
        ready.continuation.yield(.retry(owner, after: quiet))
    }

    private func post(_ event: Event, to owner: BusName, _ change: (inout Queue) -> Void) {
        let wake = state.withLock { state -> Bool in
            var queue = state.queues[owner] ?? Queue()
            change(&queue)
            queue.events.append((event, 0))
            let wake = !queue.working
            queue.working = true
            state.queues[owner] = queue
            return wake
        }
        if wake { ready.continuation.yield(.work(owner)) }
    }

    /// Connection's thread: a signal on the players' path. Kept only when a player sent it,
    /// it is a `PropertiesChanged` or a `Seeked`, and the player is not keeping quiet; the
    /// bounds make room for it, or drop it.
    func deliver(_ message: Message) {
        guard let sender = message.sender, Self.isPlayerSignal(message) else { return }
        let wanted = state.withLock { state -> Bool in
            guard let queue = state.queues[sender], queue.player else { return false }
            return !queue.quiet
        }
        guard wanted else { return }
        // Measured outside the lock: it copies the message.
        let size = message.wireSize
        let wake = state.withLock { state -> Bool in
            guard var queue = state.queues[sender], queue.player else { return false }
            defer { state.queues[sender] = queue }
            if size > Self.byteLimit {
                queue.dropped = true
            } else {
                while queue.signals >= Self.signalLimit || queue.bytes + size > Self.byteLimit || state.bytes + size > Self.totalByteLimit,
                      let freed = queue.dropOldestSignal() {
                    state.bytes -= freed
                }
                if state.bytes + size > Self.totalByteLimit {
                    queue.dropped = true
                } else {
                    queue.events.append((.signal(message), size))
                    queue.bytes += size
                    state.bytes += size
                }
            }
            guard !queue.working, !queue.events.isEmpty || queue.dropped else { return false }
            queue.working = true
            return true
        }
        if wake { ready.continuation.yield(.work(sender)) }
    }

    /// The player's worker: everything waiting for `owner` (emptying its queue), or `nil`
    /// when nothing waits — the worker then ends, and the next event starts another. A
    /// player gone with nothing waiting is forgotten.
    func take(_ owner: BusName) -> Batch? {
        state.withLock { state in
            guard var queue = state.queues[owner] else { return nil }
            guard !queue.events.isEmpty || queue.dropped else {
                queue.working = false
                state.queues[owner] = queue.player ? queue : nil
                return nil
            }
            let batch = Batch(events: queue.events.map(\.event), dropped: queue.dropped)
            state.bytes -= queue.bytes
            (queue.events, queue.bytes, queue.dropped) = ([], 0, false)
            state.queues[owner] = queue
            return batch
        }
    }

    /// Whether `owner` is keeping quiet now: nothing is asked of it.
    func isQuiet(_ owner: BusName) -> Bool {
        state.withLock { $0.queues[owner]?.quiet ?? false }
    }

    /// `owner` did not answer in time: it keeps quiet for a while (longer each time in a row).
    /// How long.
    @discardableResult
    func silent(_ owner: BusName) -> Duration {
        state.withLock { state in
            guard var queue = state.queues[owner] else { return .zero }
            let quiet = min(Self.longestQuiet, Self.firstQuiet * (1 << min(queue.silences, 16)))
            queue.silences += 1
            queue.quiet = true
            // What waits from it goes too: it is read afresh when it is asked again.
            state.bytes -= queue.bytes
            queue.events.removeAll { if case .signal = $0.event { true } else { false } }
            queue.bytes = 0
            state.queues[owner] = queue
            return quiet
        }
    }

    /// `owner` answered: its silences in a row are over.
    func answered(_ owner: BusName) {
        state.withLock { state in
            guard state.queues[owner]?.silences != 0 else { return }
            state.queues[owner]?.silences = 0
        }
    }

    private static func isPlayerSignal(_ message: Message) -> Bool {
        (message.interface == MPRISListener.propertiesInterface && message.member == MPRISListener.propertiesChanged)
            || (message.interface == MPRISListener.playerInterface && message.member == MPRISListener.seeked)
    }
}
