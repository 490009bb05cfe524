internal import CDBus
import Locking
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The machinery behind a `Connection`: its I/O loop, the message filter that routes calls
/// to exported objects and signals to subscriptions, and the tables both use.
///
/// libdbus holds one reference to the core (the filter's user data) until the connection is
/// finalised on the loop thread, so the core outlives every callback. Its state is one value
/// under one lock (`state`); the loop's own is the loop's.
final class ConnectionCore: Sendable {
    enum Endpoint: Sendable, Equatable {
        case session, system
        case address(String, register: Bool)
    }

    struct SignalTable {
        var subscriptions: [UInt64: Subscription] = [:]
        var nextID: UInt64 = 1
        /// Well-known names some subscription filters by sender: their current owners.
        var owners: [BusName: BusName] = [:]
        var ownerWatchers: [BusName: Int] = [:]
        /// Bumped by every NameOwnerChanged for a tracked name, so that an older
        /// GetNameOwner answer never overwrites a newer owner.
        var ownerGenerations: [BusName: UInt64] = [:]
    }

    /// Everything the connection keeps outside the loop: who it is, whether it is connected
    /// and who waits on that, where incoming messages go, and the calls waiting for replies.
    /// One value, so that losing the connection (`markDisconnected`) is one step.
    struct State {
        /// Its unique name on a bus; set on the loop thread before `open` returns the core.
        var uniqueName: BusName?
        var isBus = false
        /// Whether the peer negotiated Unix fd passing; fixed once authenticated.
        var canPassUnixFDs = false
        var connected = true
        var waiters: [CheckedContinuation<Void, Never>] = []
        /// Where method calls go: the exported objects.
        var registry = ObjectRegistry()
        /// Where signals go: the subscriptions.
        var signals = SignalTable()
        /// Calls waiting for a reply, so that losing the connection can answer them.
        var pendingCalls: [ObjectIdentifier: PendingReply] = [:]
        /// Told on the loop thread of each unique name that leaves the bus (`Connection.whenPeersLeave`).
        var departureHandlers: [@Sendable (BusName) -> Void] = []
        /// How a handler's error that is not a `BusError` becomes its error reply (`replyToErrors(with:)`).
        var errorRule: ErrorRule?
    }

    let loop = EventLoop()
    let state = Locked(State())
    var uniqueName: BusName? { state.withLock { $0.uniqueName } }
    var isBus: Bool { state.withLock { $0.isBus } }
    /// Whether the peer negotiated Unix fd passing; fixed once authenticated.
    var canPassUnixFDs: Bool { state.withLock { $0.canPassUnixFDs } }
    /// The largest message (header and body) this connection sends; see `Connection.maximumMessageSize`.
    let maximumMessageSize = Atomic<Int>(ConnectionCore.defaultMaximumMessageSize)
    /// dbus-daemon's default `max_message_size`: a bus that reads a longer message from a
    /// client disconnects it.
    static let defaultMaximumMessageSize = 33_554_432
    /// Room kept for the header, which libdbus does not measure for us: the fields a message
    /// can carry (names of at most 255 bytes, a signature of at most 255, serials, the
    /// sender the bus adds) come to well under this.
    static let headerAllowance = 4_096

    /// `replyToErrors(with:)`'s closure, kept in a struct: a bare function type kept in
    /// `Locked` is wrapped in two more reabstraction thunks at every `withLock { $0 }`, so
    /// each error reply made the rule two calls deeper and the connection a little bigger.
    struct ErrorRule: Sendable {
        let reply: @Sendable (any Error) -> BusError
    }

    // MARK: Opening

    /// Opens a connection on a thread of its own. A bus at an address (the system bus
    /// included) is registered on with a `Hello` sent like any call, so waiting for it holds
    /// no thread, ends after `timeout` (`NoReply`) — a bus that accepts the connection and
    /// never answers, not even the authentication, blocks libdbus's own `dbus_bus_register`
    /// for ever — and ends with `CancellationError` when the calling task is cancelled. The
    /// session bus is still registered on by libdbus (its address may need finding).
    static func open(_ endpoint: Endpoint, timeout: Duration = Connection.defaultTimeout) async throws -> ConnectionCore {
        let core = ConnectionCore()
        let opened: Endpoint
        switch endpoint {
        case .session, .address(_, register: false): opened = endpoint
        case .system: opened = .address(Self.systemBusAddress, register: false)
        case .address(let address, register: true): opened = .address(address, register: false)
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            do {
                try core.loop.start {
                    do {
                        let raw = try core.connect(opened)
                        continuation.resume()
                        return raw
                    } catch {
                        continuation.resume(throwing: error)
                        return nil
                    }
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
        guard case .address = opened, opened != endpoint else { return core }
        do {
            let hello = try Message.methodCall(destination: .bus, path: Connection.busPath, interface: .bus, member: MemberName(unchecked: "Hello"))
            let (name) = try await core.call(hello, timeoutMilliseconds: Connection.milliseconds(timeout)).arguments(String.self)
            try await core.registered(as: BusName(name))
        } catch {
            await core.close()
            throw error
        }
        return core
    }

    /// The system bus's address: `DBUS_SYSTEM_BUS_ADDRESS`, else where libdbus looks by
    /// default (Debian's and every major distribution's build).
    static var systemBusAddress: String {
        if let address = getenv("DBUS_SYSTEM_BUS_ADDRESS").map({ String(cString: $0) }), !address.isEmpty { return address }
        return "unix:path=/var/run/dbus/system_bus_socket"
    }

    /// Any thread: the bus answered `Hello` with `name`; recorded on the loop thread (libdbus
    /// is told too, as `dbus_bus_register` would have) before the opening returns.
    private func registered(as name: BusName) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            loop.execute { [self] in
                guard let raw = loop.connection else { return continuation.resume(throwing: BusError.disconnected) }
                guard dbus_bus_set_unique_name(raw, name.rawValue) != 0 else { return continuation.resume(throwing: BusError.noMemory) }
                let canPassUnixFDs = dbus_connection_can_send_type(raw, DBUS_TYPE_UNIX_FD) != 0
                state.withLock { state in
                    state.uniqueName = name
                    state.isBus = true
                    state.canPassUnixFDs = canPassUnixFDs
                }
                continuation.resume()
            }
        }
    }

    /// Opens a private libdbus connection to `endpoint` (registered on the bus when it is
    /// one), which the caller owns; `BlockingConnection` uses it too.
    static func openRaw(_ endpoint: Endpoint) throws -> OpaquePointer {
        guard Message.threadsInitialised else { throw BusError.noMemory }
        if case .address(let address, _) = endpoint, address.utf8.contains(0) {
            throw BusError.invalid("A D-Bus address cannot contain NUL.")
        }
        let raw: OpaquePointer? = try BusError.withLibdbusError(code: .disconnected) { error in
            switch endpoint {
            case .session: return dbus_bus_get_private(DBUS_BUS_SESSION, error)
            case .system: return dbus_bus_get_private(DBUS_BUS_SYSTEM, error)
            case .address(let address, _): return dbus_connection_open_private(address, error)
            }
        }
        guard let raw else { throw BusError.disconnected }
        dbus_connection_set_exit_on_disconnect(raw, 0)
        if case .address(_, let register) = endpoint, register {
            do {
                _ = try BusError.withLibdbusError(code: .disconnected) { dbus_bus_register(raw, $0) }
            } catch {
                dbus_connection_close(raw)
                dbus_connection_unref(raw)
                throw error
            }
        }
        return raw
    }

    /// Loop thread, before the loop runs: opens and registers the connection. Blocking here
    /// is fine: this thread is ours and serves nothing else yet.
    private func connect(_ endpoint: Endpoint) throws -> OpaquePointer {
        let raw = try Self.openRaw(endpoint)
        let name = dbus_bus_get_unique_name(raw).map { BusName(unchecked: String(cString: $0)) }
        let canPassUnixFDs = dbus_connection_can_send_type(raw, DBUS_TYPE_UNIX_FD) != 0
        state.withLock { state in
            if let name {
                state.uniqueName = name
                state.isBus = true
            }
            state.canPassUnixFDs = canPassUnixFDs
        }
        let context = Unmanaged.passRetained(self).toOpaque()
        guard dbus_connection_add_filter(raw, { _, message, data in
            Unmanaged<ConnectionCore>.fromOpaque(data!).takeUnretainedValue().handle(message!)
        }, context, { data in
            Unmanaged<ConnectionCore>.fromOpaque(data!).release()
        }) != 0 else {
            Unmanaged<ConnectionCore>.fromOpaque(context).release()
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw BusError.noMemory
        }
        loop.onFinish = { [self] in markDisconnected() }
        loop.handleCall = { [self] call in handleMethodCall(call) }
        return raw
    }

    // MARK: Closing

    var isConnected: Bool { state.withLock { $0.connected } }

    func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.stop { continuation.resume() }
        }
    }

    func waitUntilDisconnected() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = self.state.withLock { state -> Bool in
                if !state.connected { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Loop thread: the connection is gone. Streams end, waiting calls are answered, waiters
    /// wake: all taken in one step.
    private func markDisconnected() {
        let gone = state.withLock { state -> (waiters: [CheckedContinuation<Void, Never>], subscriptions: [Subscription], calls: [PendingReply])? in
            guard state.connected else { return nil }
            state.connected = false
            defer {
                state.waiters.removeAll()
                state.signals.subscriptions.removeAll()
                state.pendingCalls.removeAll()
            }
            return (state.waiters, Array(state.signals.subscriptions.values), Array(state.pendingCalls.values))
        }
        guard let gone else { return }
        for subscription in gone.subscriptions { subscription.finish() }
        for call in gone.calls { call.abandon() }
        for waiter in gone.waiters { waiter.resume() }
    }

    // MARK: Sending

    /// Throws `LimitsExceeded` when `message` would be longer than this connection sends:
    /// a bus disconnects a client that sends a message over its `max_message_size`, so an
    /// answer or signal that large is refused here and the connection lives on.
    func checkSize(_ message: Message, _ what: @autoclosure () -> String) throws {
        let limit = maximumMessageSize.load(ordering: .relaxed)
        let length = message.bodyLength + Self.headerAllowance
        guard length > limit else { return }
        throw BusError(code: .invalidValue, name: .limitsExceeded, message:
            "\(what()) would be \(Self.describeSize(length)), over the \(Self.describeSize(limit)) a message may have on this connection (the bus's max_message_size); it was not sent.")
    }

    static func describeSize(_ bytes: Int) -> String {
        let mebibytes = Double(bytes) / 1_048_576
        let rounded = (mebibytes * 10).rounded() / 10
        return "\(bytes) bytes (\(rounded) MiB)"
    }

    /// Sends `message` without waiting for anything.
    func send(_ message: Message) {
        // On the loop thread (handlers, the document's deliveries) it goes at once, without
        // making a closure to hand over.
        if loop.isCurrent {
            if let connection = loop.connection { _ = dbus_connection_send(connection, message.raw, nil) }
            return
        }
        loop.execute { [loop] in
            guard let connection = loop.connection else { return }
            _ = dbus_connection_send(connection, message.raw, nil)
        }
    }

    /// Sends a method call and waits for its reply.
    func call(_ message: Message, timeoutMilliseconds: Int32) async throws -> Message {
        let pending = PendingReply { [weak self] finished in
            _ = self?.state.withLock { $0.pendingCalls.removeValue(forKey: ObjectIdentifier(finished)) }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                pending.wait(continuation)
                loop.execute { [loop, self] in
                    // Recorded only while connected, in one step with the check.
                    if loop.connection != nil, state.withLock({ state in
                        guard state.connected else { return false }
                        state.pendingCalls[ObjectIdentifier(pending)] = pending
                        return true
                    }) {
                        pending.start(message, on: loop.connection, timeoutMilliseconds: timeoutMilliseconds)
                    } else {
                        pending.start(message, on: nil, timeoutMilliseconds: timeoutMilliseconds)
                    }
                }
            }
        } onCancel: {
            loop.execute { pending.cancel() }
        }
    }

    // MARK: Receiving

    /// Loop thread: libdbus's filter for every incoming message.
    private func handle(_ raw: OpaquePointer) -> DBusHandlerResult {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL:
            // Handled in its sender's turn (`CallQueue`); `Peer` calls libdbus answered already.
            loop.enqueue(Message(retaining: raw))
            return DBUS_HANDLER_RESULT_HANDLED
        case DBUS_MESSAGE_TYPE_SIGNAL:
            if dbus_message_is_signal(raw, DBUS_INTERFACE_LOCAL, "Disconnected") != 0 {
                markDisconnected()
            } else {
                route(Message(retaining: raw))
            }
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    private func route(_ message: Message) {
        if message.isSignal("org.freedesktop.DBus", "NameOwnerChanged"), message.sender == .bus,
           let change = try? NameOwnerChange(message) {
            // The bus sends this after everything the client sent: its waiting calls can go,
            // and what it left behind is cleared before the next call is handled.
            if change.name.isUnique, change.newOwner == nil {
                loop.dropCalls(from: change.name.rawValue)
                for handler in state.withLock({ $0.departureHandlers }) { handler(change.name) }
            }
            state.withLock { state in
                if state.signals.ownerWatchers[change.name] != nil {
                    state.signals.owners[change.name] = change.newOwner
                    state.signals.ownerGenerations[change.name, default: 0] += 1
                }
            }
        }
        let (subscriptions, owners) = state.withLock { ($0.signals.subscriptions, $0.signals.owners) }
        for subscription in subscriptions.values
        where subscription.rule.matches(message, owner: { owners[$0] }) {
            subscription.deliver(message)
        }
    }
}
