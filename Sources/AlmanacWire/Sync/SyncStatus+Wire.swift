public import AlmanacModels
import DBus
import FoundationEssentials

extension SyncStatus: WireShaped {
    /// `Sync1`'s properties (`GetAll`), in the order introspection lists them: `LoggedIn b`,
    /// the account's `Server`, `User`, `Device`, `Caption`, `Flavour` (`""` when logged out),
    /// `LastSync x` (Unix seconds, 0: never), `Queued u`, `LastError s`, `Syncing b`,
    /// `PasswordStore s`. Never the password.
    public struct Wire: PropertiesShape {
        var loggedIn = false
        var server = "", user = "", device = "", caption = "", flavour = ""
        var lastSync: Int64 = 0
        var queued: UInt32 = 0
        var lastError = ""
        var syncing = false
        var passwordStore = ""

        public static let unheard = Wire()
        public static let properties: [ShapeProperty<Wire>] = [
            .init(BusContract.Sync1.loggedIn, \.loggedIn), .init(BusContract.Sync1.server, \.server), .init(BusContract.Sync1.user, \.user),
            .init(BusContract.Sync1.device, \.device), .init(BusContract.Sync1.caption, \.caption), .init(BusContract.Sync1.flavour, \.flavour),
            .init(BusContract.Sync1.lastSync, \.lastSync), .init(BusContract.Sync1.queued, \.queued),
            .init(BusContract.Sync1.lastError, \.lastError), .init(BusContract.Sync1.syncing, \.syncing),
            .init(BusContract.Sync1.passwordStore, \.passwordStore),
        ]
    }

    public var wire: Wire {
        Wire(loggedIn: account != nil, server: account?.server ?? "", user: account?.user ?? "", device: account?.device ?? "",
             caption: account?.caption ?? "", flavour: account?.flavour.rawValue ?? "",
             lastSync: lastSync.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? 0, queued: UInt32(clamping: queued),
             lastError: lastError, syncing: syncing, passwordStore: passwordStore)
    }

    /// An account of a flavour this client does not know is none it can show.
    public init(wire: Wire) {
        let flavour = SyncFlavour(rawValue: wire.flavour)
        self.init(account: wire.loggedIn ? flavour.map { SyncAccount(server: wire.server, user: wire.user, device: wire.device, caption: wire.caption, flavour: $0) } : nil,
                  lastSync: wire.lastSync > 0 ? Date(timeIntervalSince1970: Double(wire.lastSync)) : nil, queued: Int(wire.queued),
                  lastError: wire.lastError, syncing: wire.syncing, passwordStore: wire.passwordStore)
    }
}
