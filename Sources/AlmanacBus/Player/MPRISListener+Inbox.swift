import DBus
import Locking
import Logging

// A player's worker: what the player said, taken from its queue (`PlayerInbox`) and handled
// in order, off the connection's thread; and the one way the listener asks a player anything.
extension MPRISListener {
    /// What a player's queued event means, read from its message.
    enum Change {
        case appeared
        case properties([String: Value])
        case seeked(Int64)
        case vanished
        case again
    }

    /// Handles what waits for `owner` until nothing does (a new event starts another worker).
    /// Signals dropped past the queue's bounds are made up for by reading the player afresh.
    func work(for owner: BusName) async {
        while !Task.isCancelled, let batch = inbox.take(owner) {
            for change in Self.changes(in: batch.events) {
                switch change {
                case .appeared: await meet(owner)
                case .again where isPlayer(owner): await meet(owner)
                case .again: continue
                case .properties(let properties): await changed(owner, properties)
                case .seeked(let microseconds): await seeked(owner, to: microseconds)
                case .vanished: await vanished(owner)
                }
            }
            if batch.dropped, let properties = await properties(of: owner) {
                await changed(owner, properties)
            }
        }
    }

    /// The changes `events` say, coalesced: a `PropertiesChanged` that the next one says again
    /// in full (every property it names) is left out, so a player that repeats itself costs one
    /// change, not one per signal. Values of the wrong type are ignored, and so are changes of
    /// other interfaces.
    static func changes(in events: [PlayerInbox.Event]) -> [Change] {
        var changes: [Change] = []
        for event in events {
            switch event {
            case .appeared: changes.append(.appeared)
            case .vanished: changes.append(.vanished)
            case .again: changes.append(.again)
            case .signal(let message) where message.member == seeked:
                if let (microseconds) = try? message.arguments(Int64.self) { changes.append(.seeked(microseconds)) }
            case .signal(let message):
                guard let (interface, changed) = try? message.arguments(String.self, [String: Value].self),
                      interface == playerInterface.rawValue else { continue }
                let names = Set(changed.keys)
                while case .properties(let earlier)? = changes.last, names.isSuperset(of: earlier.keys) { changes.removeLast() }
                changes.append(.properties(changed))
            }
        }
        return changes
    }

    /// Asks `owner` for all its player properties (`GetAll`), waiting at most `answerTimeout`.
    /// `nil` when it keeps quiet, answers with an error or values of the wrong type, or does
    /// not answer in time — it then keeps quiet for a while (`PlayerInbox.silent`).
    func properties(of owner: BusName) async -> [String: Value]? {
        guard !inbox.isQuiet(owner) else { return nil }
        do {
            let reply = try await connection.call(owner, path: Self.path, interface: .properties, method: "GetAll", timeout: Self.answerTimeout,
                                                  arguments: Self.playerInterface.rawValue)
            inbox.answered(owner)
            return try? reply.arguments([String: Value].self)
        } catch let error as BusError where error.name == .noReply {
            // Not heard, not asked, until asked again after a while.
            let quiet = inbox.silent(owner)
            unhear(owner)
            inbox.retry(owner, after: quiet)
            logger.notice("a media player did not answer in time; it is left alone for a while", metadata: ["player": "\(owner)", "for": "\(quiet)"])
            return nil
        } catch {
            return nil
        }
    }

    /// Hears `owner`'s signals from now on: a match rule naming it as the sender, whose
    /// messages go to its queue on the connection's thread. Whether the bus took the rule.
    func hear(_ owner: BusName) async -> Bool {
        let inbox = self.inbox
        guard let watch = try? await connection.onSignals(matching: MatchRule(sender: owner, path: Self.path), { inbox.deliver($0) }) else { return false }
        // A player gone meanwhile is heard no more: its new watch goes at once.
        let replaced = state.withLock { state -> SignalWatch? in
            guard state.players[owner] != nil else { return watch }
            defer { state.players[owner]?.watch = watch }
            return state.players[owner]?.watch
        }
        replaced?.cancel()
        return true
    }

    /// Stops hearing `owner`'s signals (its rule removed from the bus).
    func unhear(_ owner: BusName) {
        state.withLock { state in
            defer { state.players[owner]?.watch = nil }
            return state.players[owner]?.watch
        }?.cancel()
    }
}
