extension Connection {
    /// Calls a method and waits for its reply; the arguments are written by `body`.
    ///
    /// Throws `BusError` with the peer's error name for an error reply, `NoReply` when
    /// `timeout` passes first, `Disconnected` when the connection is gone, and
    /// `CancellationError` when the calling task is cancelled (the reply is then ignored).
    public func call(
        _ destination: BusName?, path: ObjectPath, interface: InterfaceName?, method: MemberName,
        timeout: Duration = Connection.defaultTimeout,
        body: (inout MessageWriter) throws -> Void
    ) async throws -> Message {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: method)
        try message.write(body)
        try core.checkSize(message, "The call to \(method)")
        return try await core.call(message, timeoutMilliseconds: Self.milliseconds(timeout))
    }

    /// Calls a method with typed arguments and waits for its reply.
    public func call<each A: BusEncodable>(
        _ destination: BusName?, path: ObjectPath, interface: InterfaceName?, method: MemberName,
        timeout: Duration = Connection.defaultTimeout,
        arguments: repeat each A
    ) async throws -> Message {
        try await call(destination, path: path, interface: interface, method: method, timeout: timeout) { writer in
            repeat try (each arguments).encode(to: &writer)
        }
    }

    /// Calls a method and does not wait: the message says no reply is wanted.
    public func callWithoutReply(
        _ destination: BusName?, path: ObjectPath, interface: InterfaceName?, method: MemberName,
        body: (inout MessageWriter) throws -> Void
    ) throws {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: method)
        message.setNoReply(true)
        try message.write(body)
        try core.checkSize(message, "The call to \(method)")
        core.send(message)
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        // libdbus takes an Int32 of milliseconds: about 24 days at most.
        guard seconds < Int64(Int32.max) / 1000 else { return Int32.max }
        guard seconds >= 0 else { return 0 }
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    // MARK: The bus itself

    static let busPath = ObjectPath(unchecked: "/org/freedesktop/DBus")

    func callBus<each A: BusEncodable>(_ method: String, timeout: Duration = Connection.defaultTimeout, _ arguments: repeat each A) async throws -> Message {
        try await call(.bus, path: Self.busPath, interface: .bus, method: MemberName(unchecked: method), timeout: timeout, arguments: repeat each arguments)
    }

    /// Asks the bus for `name`. The result says whether we own it now or wait in its queue.
    public func requestName(_ name: BusName, flags: RequestNameFlags = []) async throws -> RequestNameReply {
        guard !name.isUnique else { throw BusError.invalid("Only well-known names can be requested, not \(name).") }
        let reply = try await callBus("RequestName", name.rawValue, flags.rawValue)
        let (code) = try reply.arguments(UInt32.self)
        guard let result = RequestNameReply(rawValue: code) else {
            throw BusError(code: .remote, name: .failed, message: "The bus answered RequestName with unknown code \(code).")
        }
        return result
    }

    /// Gives `name` back to the bus, waiting at most `timeout` for its answer.
    public func releaseName(_ name: BusName, timeout: Duration = Connection.defaultTimeout) async throws -> ReleaseNameReply {
        let reply = try await callBus("ReleaseName", timeout: timeout, name.rawValue)
        let (code) = try reply.arguments(UInt32.self)
        guard let result = ReleaseNameReply(rawValue: code) else {
            throw BusError(code: .remote, name: .failed, message: "The bus answered ReleaseName with unknown code \(code).")
        }
        return result
    }

    /// The unique name that owns `name` now, or `nil` when nobody does.
    public func nameOwner(of name: BusName) async throws -> BusName? {
        do {
            let (owner) = try await callBus("GetNameOwner", name.rawValue).arguments(String.self)
            return try BusName(owner)
        } catch let error as BusError where error.name == .nameHasNoOwner {
            return nil
        }
    }
}
