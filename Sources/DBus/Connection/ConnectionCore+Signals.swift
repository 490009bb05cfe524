import Locking
import Synchronization
extension ConnectionCore {
    func subscribe(_ rule: MatchRule, bufferLimit: Int) async throws -> SignalStream {
        let (stream, continuation) = AsyncStream.makeStream(of: Message.self, bufferingPolicy: .bufferingNewest(bufferLimit))
        let dropped = SignalStream.DroppedCounter()
        let id = try await subscribe(Subscription(rule: rule, sink: .stream(continuation, dropped)))
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return SignalStream(stream: stream, dropped: dropped)
    }

    /// Adds `subscription` to the table and its rule to the bus (and, for a rule that names
    /// a well-known sender, the tracking of its owner); its id, for `unsubscribe`.
    func subscribe(_ subscription: Subscription) async throws -> UInt64 {
        let rule = subscription.rule
        try rule.validate()
        guard isConnected else { throw BusError.disconnected }
        let trackedName = rule.sender.flatMap { $0.isUnique || $0 == .bus || !isBus ? nil : $0 }

        // Checked again where it is added: a disconnection between the two finishes every
        // subscription in the table, and one added after it would never be finished.
        let added = state.withLock { state -> (UInt64, Bool, UInt64)? in
            state.connected ? state.signals.add(subscription, tracking: trackedName) : nil
        }
        guard let (id, firstWatcher, generation) = added else { throw BusError.disconnected }

        if isBus {
            do {
                if let trackedName, firstWatcher {
                    // One owner rule per tracked name, added by the first subscription to it
                    // and removed by the last.
                    try await addMatch(Self.ownerRule(for: trackedName))
                    let owner = try await nameOwner(of: trackedName)
                    state.withLock { state in
                        if state.signals.ownerGenerations[trackedName, default: 0] == generation { state.signals.owners[trackedName] = owner }
                    }
                }
                try await addMatch(rule)
            } catch {
                unsubscribe(id)
                subscription.finish()
                throw error
            }
        }
        return id
    }

    func unsubscribe(_ id: UInt64) {
        let (removed, untracked) = state.withLock { $0.signals.remove(id) }
        guard isBus, isConnected, let removed else { return }
        removeMatch(removed.rule)
        if let untracked { removeMatch(Self.ownerRule(for: untracked)) }
    }

    /// Asks the bus for every departure and tells `handler` of each on the loop thread.
    func watchDepartures(_ handler: @escaping @Sendable (BusName) -> Void) async throws {
        state.withLock { $0.departureHandlers.append(handler) }
        guard isBus else { return }
        try await addMatch(MatchRule(sender: .bus, interface: .bus, member: MemberName(unchecked: "NameOwnerChanged"),
                                     path: Connection.busPath, arguments: [2: ""]))
    }

    static func ownerRule(for name: BusName) -> MatchRule {
        MatchRule(sender: .bus, interface: .bus, member: MemberName(unchecked: "NameOwnerChanged"),
                  path: Connection.busPath, arguments: [0: name.rawValue])
    }

    private func busCall(_ method: String, _ body: (inout MessageWriter) throws -> Void) throws -> Message {
        let message = try Message.methodCall(destination: .bus, path: Connection.busPath, interface: .bus,
                                             member: MemberName(unchecked: method))
        try message.write(body)
        return message
    }

    private func addMatch(_ rule: MatchRule) async throws {
        let text = rule.description
        _ = try await call(busCall("AddMatch") { try $0.write(text) }, timeoutMilliseconds: 25_000)
    }

    private func removeMatch(_ rule: MatchRule) {
        let text = rule.description
        guard let message = try? busCall("RemoveMatch", { try $0.write(text) }) else { return }
        message.setNoReply(true)
        send(message)
    }

    private func nameOwner(of name: BusName) async throws -> BusName? {
        do {
            let reply = try await call(busCall("GetNameOwner") { try $0.write(name.rawValue) }, timeoutMilliseconds: 25_000)
            let (owner) = try reply.arguments(String.self)
            return try BusName(owner)
        } catch let error as BusError where error.name == .nameHasNoOwner {
            return nil
        }
    }
}

extension ConnectionCore.SignalTable {
    /// Adds `subscription`, tracking the owner of `trackedName` (a well-known sender); its id,
    /// whether it is the first to track that name, and the name's owner generation now.
    mutating func add(_ subscription: Subscription, tracking trackedName: BusName?) -> (UInt64, Bool, UInt64) {
        let id = nextID
        nextID += 1
        subscriptions[id] = subscription
        guard let trackedName else { return (id, false, 0) }
        ownerWatchers[trackedName, default: 0] += 1
        return (id, ownerWatchers[trackedName] == 1, ownerGenerations[trackedName, default: 0])
    }

    /// Removes subscription `id`; it, and the name no subscription tracks any more.
    mutating func remove(_ id: UInt64) -> (Subscription?, BusName?) {
        guard let subscription = subscriptions.removeValue(forKey: id) else { return (nil, nil) }
        guard let name = subscription.rule.sender, let count = ownerWatchers[name] else { return (subscription, nil) }
        if count > 1 {
            ownerWatchers[name] = count - 1
            return (subscription, nil)
        }
        ownerWatchers[name] = nil
        owners[name] = nil
        ownerGenerations[name] = nil
        return (subscription, name)
    }
}
