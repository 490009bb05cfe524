public import AlmanacModels
public import DBus
import FoundationEssentials

/// The sync's values on the bus: `Sync1`'s properties, `Login`'s and `Sync`'s answers, and
/// back again for the CLI. Never the password.
public enum SyncCodec {
    /// `Sync1`'s properties and their types, in the order introspection lists them.
    public static let propertyTypes: [(String, ValueType)] = [
        (BusContract.Sync1.loggedIn.rawValue, .boolean), (BusContract.Sync1.server.rawValue, .string), (BusContract.Sync1.user.rawValue, .string), (BusContract.Sync1.device.rawValue, .string), (BusContract.Sync1.caption.rawValue, .string), (BusContract.Sync1.flavour.rawValue, .string),
        (BusContract.Sync1.lastSync.rawValue, .int64), (BusContract.Sync1.queued.rawValue, .uint32), (BusContract.Sync1.lastError.rawValue, .string), (BusContract.Sync1.syncing.rawValue, .boolean), (BusContract.Sync1.passwordStore.rawValue, .string),
    ]

    /// The properties `status` makes.
    public static func properties(_ status: SyncStatus) -> [String: Value] {
        let account = status.account
        return [
            BusContract.Sync1.loggedIn.rawValue: .boolean(account != nil), BusContract.Sync1.server.rawValue: .string(account?.server ?? ""), BusContract.Sync1.user.rawValue: .string(account?.user ?? ""),
            BusContract.Sync1.device.rawValue: .string(account?.device ?? ""), BusContract.Sync1.caption.rawValue: .string(account?.caption ?? ""), BusContract.Sync1.flavour.rawValue: .string(account?.flavour.rawValue ?? ""),
            BusContract.Sync1.lastSync.rawValue: .int64(status.lastSync.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? 0),
            BusContract.Sync1.queued.rawValue: .uint32(UInt32(clamping: status.queued)), BusContract.Sync1.lastError.rawValue: .string(status.lastError), BusContract.Sync1.syncing.rawValue: .boolean(status.syncing),
            BusContract.Sync1.passwordStore.rawValue: .string(status.passwordStore),
        ]
    }

    /// The status the properties (`GetAll`) say.
    public static func status(_ properties: [String: Value]) -> SyncStatus {
        var status = SyncStatus()
        if properties[BusContract.Sync1.loggedIn.rawValue]?.unwrapped == .boolean(true),
           let server = properties[BusContract.Sync1.server.rawValue]?.stringValue, let user = properties[BusContract.Sync1.user.rawValue]?.stringValue, let device = properties[BusContract.Sync1.device.rawValue]?.stringValue,
           let flavour = properties[BusContract.Sync1.flavour.rawValue]?.stringValue.flatMap(SyncFlavour.init(rawValue:)) {
            status.account = SyncAccount(server: server, user: user, device: device, caption: properties[BusContract.Sync1.caption.rawValue]?.stringValue ?? "", flavour: flavour)
        }
        if let seconds = properties[BusContract.Sync1.lastSync.rawValue]?.integerValue, seconds > 0 { status.lastSync = Date(timeIntervalSince1970: Double(seconds)) }
        status.queued = Int(properties[BusContract.Sync1.queued.rawValue]?.integerValue ?? 0)
        status.lastError = properties[BusContract.Sync1.lastError.rawValue]?.stringValue ?? ""
        status.syncing = properties[BusContract.Sync1.syncing.rawValue]?.unwrapped == .boolean(true)
        status.passwordStore = properties[BusContract.Sync1.passwordStore.rawValue]?.stringValue ?? ""
        return status
    }

    /// `Login`'s answer.
    public static func encode(_ account: SyncAccount) -> Value {
        WireEncoder.dictionary(account, keys: .encoded)
    }

    /// `Sync`'s answer: `subscribed as`, `unsubscribed as`, `episodesUpdated u`, `sent u`,
    /// `unreadFeeds a{ss}` (feed URL → why it could not be read).
    public static func encode(_ report: SyncReport) -> Value {
        .stringVariantDictionary([
            "subscribed": .array(.string, report.subscribed.map(Value.string)),
            "unsubscribed": .array(.string, report.unsubscribed.map(Value.string)),
            "episodesUpdated": .uint32(UInt32(clamping: report.episodesUpdated)),
            "sent": .uint32(UInt32(clamping: report.sent)),
            "unreadFeeds": .dictionary(key: .string, value: .string, report.unreadFeeds.sorted { $0.key < $1.key }.map {
                Value.DictionaryEntry(.string($0.key), .string($0.value))
            }),
        ])
    }

    /// The report `Sync` answered.
    public static func report(_ values: [String: Value]) -> SyncReport {
        var report = SyncReport()
        func strings(_ key: String) -> [String] {
            guard case .array(_, let items)? = values[key]?.unwrapped else { return [] }
            return items.compactMap(\.stringValue)
        }
        report.subscribed = strings("subscribed")
        report.unsubscribed = strings("unsubscribed")
        report.episodesUpdated = Int(values["episodesUpdated"]?.integerValue ?? 0)
        report.sent = Int(values["sent"]?.integerValue ?? 0)
        if case .dictionary(_, _, let entries)? = values["unreadFeeds"]?.unwrapped {
            for entry in entries {
                if let url = entry.key.stringValue, let why = entry.value.stringValue { report.unreadFeeds[url] = why }
            }
        }
        return report
    }
}
