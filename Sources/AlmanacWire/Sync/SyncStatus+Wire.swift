public import AlmanacModels
import DBus
import FoundationEssentials

extension SyncStatus: WireShaped {
    /// `Sync1`'s properties (`GetAll`), in the order introspection lists them: `LoggedIn b`,
    /// the account's `Server`, `User`, `Device`, `Caption`, `Flavour` (`""` when logged out),
    /// `LastSync x` (Unix seconds, 0: never), `Queued u`, `LastError s`, `Syncing b`,
    /// `PasswordStore s`. Never the password.
    public struct Wire: Codable {
        var loggedIn: Bool
        var server, user, device, caption, flavour: String
        var lastSync: Int64
        var queued: UInt32
        var lastError: String
        var syncing: Bool
        var passwordStore: String

        /// Each property's name, spelled once in the contract.
        enum CodingKeys: ContractKeys {
            case loggedIn, server, user, device, caption, flavour, lastSync, queued, lastError, syncing, passwordStore

            var member: MemberName {
                switch self {
                case .loggedIn: BusContract.Sync1.loggedIn.name
                case .server: BusContract.Sync1.server.name
                case .user: BusContract.Sync1.user.name
                case .device: BusContract.Sync1.device.name
                case .caption: BusContract.Sync1.caption.name
                case .flavour: BusContract.Sync1.flavour.name
                case .lastSync: BusContract.Sync1.lastSync.name
                case .queued: BusContract.Sync1.queued.name
                case .lastError: BusContract.Sync1.lastError.name
                case .syncing: BusContract.Sync1.syncing.name
                case .passwordStore: BusContract.Sync1.passwordStore.name
                }
            }
        }
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
