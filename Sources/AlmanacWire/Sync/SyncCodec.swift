public import AlmanacModels
public import DBus
import FoundationEssentials

/// The sync's values on the bus: `Sync1`'s properties, `Login`'s and `Sync`'s answers, and
/// back again for the CLI. Never the password.
public enum SyncCodec {
    /// `Sync1`'s properties as `status` gives them, in the order introspection lists them.
    public static let fields: [PropertyField<SyncStatus>] = [
        PropertyField(BusContract.Sync1.loggedIn) { $0.account != nil }, PropertyField(BusContract.Sync1.server) { $0.account?.server ?? "" },
        PropertyField(BusContract.Sync1.user) { $0.account?.user ?? "" }, PropertyField(BusContract.Sync1.device) { $0.account?.device ?? "" },
        PropertyField(BusContract.Sync1.caption) { $0.account?.caption ?? "" }, PropertyField(BusContract.Sync1.flavour) { $0.account?.flavour.rawValue ?? "" },
        PropertyField(BusContract.Sync1.lastSync) { $0.lastSync.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? 0 },
        PropertyField(BusContract.Sync1.queued) { UInt32(clamping: $0.queued) }, PropertyField(BusContract.Sync1.lastError) { $0.lastError },
        PropertyField(BusContract.Sync1.syncing) { $0.syncing }, PropertyField(BusContract.Sync1.passwordStore) { $0.passwordStore },
    ]

    /// The properties `status` makes, by name.
    public static func properties(_ status: SyncStatus) -> [String: Value] {
        Dictionary(uniqueKeysWithValues: fields.map { $0.entry(status) })
    }

    /// The status the properties (`GetAll`) say.
    public static func status(_ properties: [String: Value]) -> SyncStatus {
        var status = SyncStatus()
        if properties[BusContract.Sync1.loggedIn] == true, let server = properties[BusContract.Sync1.server], let user = properties[BusContract.Sync1.user],
           let device = properties[BusContract.Sync1.device], let flavour = properties[BusContract.Sync1.flavour].flatMap(SyncFlavour.init(rawValue:)) {
            status.account = SyncAccount(server: server, user: user, device: device, caption: properties[BusContract.Sync1.caption] ?? "", flavour: flavour)
        }
        if let seconds = properties[BusContract.Sync1.lastSync], seconds > 0 { status.lastSync = Date(timeIntervalSince1970: Double(seconds)) }
        status.queued = Int(properties[BusContract.Sync1.queued] ?? 0)
        status.lastError = properties[BusContract.Sync1.lastError] ?? ""
        status.syncing = properties[BusContract.Sync1.syncing] == true
        status.passwordStore = properties[BusContract.Sync1.passwordStore] ?? ""
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
