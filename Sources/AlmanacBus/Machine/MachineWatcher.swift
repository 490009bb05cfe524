public import AlmanacCore
import AlmanacModels
import DBus
public import Logging

/// Watches the machine on the system bus and tells the core (`MachineEvents`): a resume
/// (logind's `PrepareForSleep(false)`) and the network's state (NetworkManager's `State` and
/// `Metered`, from `StateChanged` and `PropertiesChanged`). Every match rule names the sender
/// (`org.freedesktop.login1`, `org.freedesktop.NetworkManager`), the path and the interface,
/// and a signal counts only when its sender's unique name owns that well-known name now (the
/// DBus module checks it against the owner it tracks), so no other client of the system bus
/// can make almanacd fetch by sending a look-alike (docs/security.md).
///
/// It fails softly: no system bus, no logind or no NetworkManager is a debug line, the
/// network `unknown` and everything goes on as without it. It starts after the session bus
/// name is taken (almanacd's group), and a silent system bus — one that accepts the
/// connection and never answers — costs it at most `startLimit`; its first report (the
/// network, or `unknown`) comes within that time, which lifts the hold `NetworkConditions`
/// keeps on the daemon's own downloads until then. Idle, it costs no wake-up: it waits for
/// signals.
public final class MachineWatcher: Service {
    static let login1: BusName = "org.freedesktop.login1"
    static let login1Path: ObjectPath = "/org/freedesktop/login1"
    static let login1Manager: InterfaceName = "org.freedesktop.login1.Manager"
    static let prepareForSleep: MemberName = "PrepareForSleep"
    static let networkManager: BusName = "org.freedesktop.NetworkManager"
    static let networkManagerPath: ObjectPath = "/org/freedesktop/NetworkManager"
    static let networkManagerInterface: InterfaceName = "org.freedesktop.NetworkManager"
    static let stateChanged: MemberName = "StateChanged"
    static let propertiesChanged: MemberName = "PropertiesChanged"
    /// The most connecting, subscribing and the first reading of the network may take in all.
    public static let startLimit: Duration = .seconds(10)

    /// What `start` subscribed to, for `run` to follow.
    private struct Watching: Sendable {
        let connection: Connection
        let sleep: SignalStream
        let properties: SignalStream
        let states: SignalStream
        let owners: AsyncCompactMapSequence<SignalStream, NameOwnerChange>
    }

    private let events: any MachineEvents
    /// The system bus (`nil`: the default one, or `DBUS_SYSTEM_BUS_ADDRESS`).
    private let systemBusAddress: String?
    private let logger: Logger
    /// Changes of the network's reading, in the order they were read, to the one task of `run`
    /// that keeps the reading (its one owner: no lock) and tells the core.
    private let changes: (stream: AsyncStream<Change>, continuation: AsyncStream<Change>.Continuation) = AsyncStream.makeStream()
    private struct Change: Sendable {
        let apply: @Sendable (inout NetworkManagerReading) -> Void
    }

    public init(events: any MachineEvents, systemBusAddress: String? = nil, logger: Logger) {
        self.events = events
        self.systemBusAddress = systemBusAddress
        self.logger = logger
    }

    /// Connects to the system bus, subscribes (before reading, so no change is missed) and
    /// reads NetworkManager's state once, within `startLimit`. `nil` without the system bus
    /// (said in the log); the network is reported either way.
    private func start() async -> Watching? {
        do {
            return try await withTimeLimit(Self.startLimit) { [self] in
                let connection = try await SystemBus.connect(systemBusAddress)
                do {
                    let watching = try await subscribe(connection)
                    await readNetworkManager(connection)
                    logger.info("watching resumes and the network on the system bus")
                    return watching
                } catch {
                    await connection.close()
                    throw error
                }
            }
        } catch {
            logger.debug("no system bus: resumes and the network are not watched", metadata: ["error": "\(error)"])
            report { $0 = NetworkManagerReading() }
            return nil
        }
    }

    private func subscribe(_ connection: Connection) async throws -> Watching {
        let sleep = try await connection.signals(matching: MatchRule(sender: Self.login1, interface: Self.login1Manager,
                                                                     member: Self.prepareForSleep, path: Self.login1Path), bufferLimit: 8)
        let properties = try await connection.signals(matching: MatchRule(sender: Self.networkManager, interface: .properties, member: Self.propertiesChanged,
                                                                          path: Self.networkManagerPath, arguments: [0: Self.networkManagerInterface.rawValue]),
                                                      bufferLimit: 16)
        let states = try await connection.signals(matching: MatchRule(sender: Self.networkManager, interface: Self.networkManagerInterface,
                                                                      member: Self.stateChanged, path: Self.networkManagerPath), bufferLimit: 16)
        let owners = try await connection.nameOwnerChanges(of: Self.networkManager, bufferLimit: 8)
        return Watching(connection: connection, sleep: sleep, properties: properties, states: states, owners: owners)
    }

    /// Starts (`start`), then follows the signals until cancelled, and closes the connection.
    public func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask { [changes, events] in
                var reading = NetworkManagerReading()
                for await change in changes.stream {
                    change.apply(&reading)
                    events.networkChanged(to: reading.network)
                }
            }
            await follow(await start(), in: &group)
            group.cancelAll()
        }
    }

    /// Follows what `watching` hears, until cancelled, and closes its connection (none: waits
    /// until cancelled).
    private func follow(_ watching: Watching?, in group: inout DiscardingTaskGroup) async {
        guard let watching else {
            await Task.untilCancelled()
            return
        }
        group.addTask { [events] in
            for await signal in watching.sleep {
                // `true`: going to sleep; `false`: awake again.
                guard let (sleeping) = try? signal.arguments(Bool.self) else { continue }
                if sleeping { events.suspending() } else { events.resumed() }
            }
        }
        group.addTask {
            for await signal in watching.properties {
                guard let (_, changed) = try? signal.arguments(String.self, [String: Value].self) else { continue }
                self.report { $0.apply(changed) }
            }
        }
        group.addTask {
            for await signal in watching.states {
                guard let (state) = try? signal.arguments(UInt32.self) else { continue }
                self.report { $0.apply([NetworkManagerReading.stateKey: .uint32(state)]) }
            }
        }
        group.addTask {
            // NetworkManager gone: unknown; back (restarted): read afresh.
            for await change in watching.owners {
                if change.newOwner == nil {
                    self.report { $0 = NetworkManagerReading() }
                } else {
                    await self.readNetworkManager(watching.connection)
                }
            }
        }
        await Task.untilCancelled()
        await watching.connection.close()
    }

    /// Reads NetworkManager's `State` and `Metered`; none (it is not running, or does not
    /// answer within `SystemBus.callTimeout`) is `unknown`.
    private func readNetworkManager(_ connection: Connection) async {
        do {
            let reply = try await connection.call(Self.networkManager, path: Self.networkManagerPath, interface: .properties, method: "GetAll",
                                                  timeout: SystemBus.callTimeout, arguments: Self.networkManagerInterface.rawValue)
            let (properties) = try reply.arguments([String: Value].self)
            report { reading in
                reading = NetworkManagerReading()
                reading.apply(properties)
            }
        } catch {
            logger.debug("no NetworkManager: the network is not watched", metadata: ["error": "\(error)"])
            report { $0 = NetworkManagerReading() }
        }
    }

    /// Changes the reading and tells the core what the network is now, in the order the
    /// changes were read (`run`'s one task applies them).
    private func report(_ change: @escaping @Sendable (inout NetworkManagerReading) -> Void) {
        changes.continuation.yield(Change(apply: change))
    }
}
