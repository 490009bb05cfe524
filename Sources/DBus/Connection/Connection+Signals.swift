extension Connection {
    /// Emits a signal; `destination` makes it unicast (only that peer receives it), otherwise
    /// it is broadcast to everyone whose match rules accept it. Returns the length of its body
    /// in bytes.
    @discardableResult
    public func emit(
        path: ObjectPath, interface: InterfaceName, signal: MemberName, destination: BusName? = nil,
        body: (inout MessageWriter) throws -> Void
    ) throws -> Int {
        guard isConnected else { throw BusError.disconnected }
        return try core.emit(path: path, interface: interface, member: signal, destination: destination, body)
    }

    /// Emits a signal with typed arguments.
    public func emit<each A: BusEncodable>(
        path: ObjectPath, interface: InterfaceName, signal: MemberName, destination: BusName? = nil,
        arguments: repeat each A
    ) throws {
        try emit(path: path, interface: interface, signal: signal, destination: destination) { writer in
            repeat try (each arguments).encode(to: &writer)
        }
    }

    /// Subscribes to the messages that match `rule` and returns them as a stream.
    ///
    /// The rule is added to the bus before this returns, so nothing sent afterwards is
    /// missed. At most `bufferLimit` messages wait for the consumer; beyond that the oldest
    /// are dropped (see `SignalStream`). Ending the iteration removes the rule again.
    public func signals(matching rule: MatchRule, bufferLimit: Int = 1024) async throws -> SignalStream {
        try await core.subscribe(rule, bufferLimit: max(1, bufferLimit))
    }

    /// Calls `handler` with each message that matches `rule`, on the connection's own thread,
    /// in the order the connection reads them — the messages of every `onSignals` watch of
    /// the connection in one order, so a name's owner change comes before the signals its new
    /// owner sends next. For a program that must bound what it keeps of a sender's signals
    /// itself (a queue per sender): nothing is buffered here. The handler must not block and
    /// should be quick: the connection reads nothing else meanwhile; keeping the `Message`
    /// keeps its bytes in libdbus's count of received messages (reading pauses at 63 MiB).
    /// The rule is added to the bus before this returns.
    public func onSignals(matching rule: MatchRule, _ handler: @escaping @Sendable (Message) -> Void) async throws -> SignalWatch {
        let core = self.core
        let id = try await core.subscribe(Subscription(rule: rule, sink: .handler(handler)))
        return SignalWatch { [weak core] in core?.unsubscribe(id) }
    }

    /// The owner changes of `name` (or of every name when `nil`), as a stream.
    public func nameOwnerChanges(of name: BusName? = nil, bufferLimit: Int = 1024) async throws
        -> AsyncCompactMapSequence<SignalStream, NameOwnerChange>
    {
        var rule = MatchRule(sender: .bus, interface: .bus, member: MemberName(unchecked: "NameOwnerChanged"), path: Self.busPath)
        if let name { rule.arguments[0] = name.rawValue }
        return try await signals(matching: rule, bufferLimit: bufferLimit).compactMap { try? NameOwnerChange($0) }
    }
}
