public import AlmanacCore
import AlmanacModels
import AlmanacWire
public import DBus
import Locking
public import Logging
import Synchronization

/// The sync on the bus: `org.almanac.Sync1` at `/org/almanac/Almanac1/sync` — `Login`,
/// `Logout`, `Sync` and the state as properties, each change announced with
/// `PropertiesChanged`. A view of the sync's status document; the rules are the core's.
public final class SyncExport: Sendable {
    public let sync: PodcastSync
    private let connection: Connection
    private let logger: Logger
    /// What the properties said last, to announce only what changed.
    private let announced = Locked<[String: Value]>([:])
    private static let viewKey = ViewKey("almanacd:bus:sync")

    public init(sync: PodcastSync, connection: Connection, logger: Logger) {
        self.sync = sync
        self.connection = connection
        self.logger = logger
    }

    /// Exports the object and announces the status's changes from now on.
    public func export() throws {
        let properties = try WireCoding.fields(sync.status.state)
        announced.withLock { $0 = properties }
        sync.status.addView(key: Self.viewKey) { [weak self] event in
            guard let self, case .changed(_, let status, _) = event else { return }
            announce(status)
        }
        try connection.export([interface()], at: BusContract.syncPath)
    }

    public func unexport() {
        sync.status.removeView(key: Self.viewKey)
        try? connection.unexport(BusContract.syncPath)
    }

    private func announce(_ status: SyncStatus) {
        let properties: [String: Value]
        do {
            properties = try WireCoding.fields(status)
        } catch {
            logger.error("could not encode the sync's state", metadata: ["error": "\(error)"])
            return
        }
        let changed = announced.withLock { announced -> [(String, Value)] in
            defer { announced = properties }
            return properties.keys.sorted().compactMap { key in announced[key] == properties[key] ? nil : (key, properties[key]!) }
        }
        guard !changed.isEmpty else { return }
        do {
            try connection.emitPropertiesChanged(path: BusContract.syncPath, interface: BusContract.syncInterface, values: changed)
        } catch {
            logger.error("could not announce the sync's state", metadata: ["error": "\(error)"])
        }
    }

    private func interface() throws -> Interface {
        let sync = self.sync
        return try Interface(BusContract.syncInterface.rawValue, methods: [
            Method(BusContract.Sync1.login, async: { _, arguments in
                let (server, user, password, values) = arguments
                let reader = try OptionsReader(values, allowed: ["device", "caption", "flavour"], what: "login option")
                let flavourName = try reader.string("flavour")
                let flavour = try flavourName.map { name in
                    guard let flavour = SyncFlavour(rawValue: name) else {
                        throw BusError.invalidArgs("'flavour' is \(SyncFlavour.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")), not '\(name.prefix(80))'.")
                    }
                    return flavour
                }
                let account = try await sync.logIn(server: server, user: user, password: password, device: try reader.string("device"),
                                                   caption: try reader.string("caption"), flavour: flavour)
                return try WireCoding.dictionary(account)
            }),
            Method(BusContract.Sync1.logout, async: { _, _ in try await sync.logOut() }),
            Method(BusContract.Sync1.sync, async: { _, _ in try WireCoding.dictionary(try await sync.sync()) }),
        ], properties: SyncStatus.Wire.fields.map { $0.property { sync.status.state.wire } })
    }
}
