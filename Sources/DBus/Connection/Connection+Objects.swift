import Locking
import Synchronization
extension Connection {
    /// Exports an object at `path` with `interfaces` (added to any already there).
    ///
    /// The object answers `Introspectable`, `Properties` and `Peer` by itself. When an object
    /// manager stands above `path`, it announces the object with `InterfacesAdded`.
    public func export(_ interfaces: [Interface], at path: ObjectPath) throws {
        try core.export(interfaces, at: path)
    }

    /// Removes the object at `path`, or only the named interfaces of it, announcing
    /// `InterfacesRemoved` through its object manager.
    public func unexport(_ path: ObjectPath, interfaces: [InterfaceName]? = nil) throws {
        try core.unexport(at: path, interfaces: interfaces)
    }

    /// Calls `handler` with each unique name that leaves the bus, on the connection's thread,
    /// before the loop handles another call: a server clears what a departed client left
    /// (views, downloads) in order with the calls it serves, so a client that comes and goes
    /// faster than it could be cleared up after is slowed instead of leaving a backlog. The
    /// handler must not block. Adds the bus match rule for departures.
    public func whenPeersLeave(_ handler: @escaping @Sendable (BusName) -> Void) async throws {
        try await core.watchDepartures(handler)
    }

    /// Sets how an error that a method or property handler throws, and that is not a
    /// `BusError`, becomes the call's error reply; without a rule it is
    /// `org.freedesktop.DBus.Error.Failed` with the error's description. An application whose
    /// errors name themselves sets one rule, once, so that its handlers just throw: it holds
    /// for every object on the connection, and for replies answered later (`DeferredReply`).
    /// A `BusError` is always sent as it is.
    public func replyToErrors(with rule: @escaping @Sendable (any Error) -> BusError) {
        core.state.withLock { $0.errorRule = ConnectionCore.ErrorRule(reply: rule) }
    }

    /// Whether the caller runs on the connection's own thread, where every handler of a
    /// synchronous method and every signal handler runs (code that must never block it, such
    /// as a disk write, can check).
    public var isOnConnectionThread: Bool { core.loop.isCurrent }

    /// Makes `path` an `org.freedesktop.DBus.ObjectManager` for the objects below it.
    public func addObjectManager(at path: ObjectPath) {
        core.state.withLock { $0.registry.addManager(path) }
    }

    /// Announces new property values with one `PropertiesChanged` signal.
    public func emitPropertiesChanged(
        path: ObjectPath, interface: InterfaceName, changed: KeyValuePairs<String, Value>, invalidated: [String] = []
    ) throws {
        try core.emitPropertiesChanged(path: path, interface: interface, changed: changed.map { ($0.key, $0.value) }, invalidated: invalidated)
    }

    /// Emits `PropertiesChanged` for properties known only at run time, in the given order.
    public func emitPropertiesChanged(path: ObjectPath, interface: InterfaceName, values: [(String, Value)], invalidated: [String] = []) throws {
        try core.emitPropertiesChanged(path: path, interface: interface, changed: values, invalidated: invalidated)
    }
}
