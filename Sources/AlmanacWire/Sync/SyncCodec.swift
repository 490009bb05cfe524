public import AlmanacModels
public import DBus

/// `Sync1` on the bus beyond its values' shapes (`SyncStatus.Wire`, `SyncReport.Wire`,
/// `SyncAccount`): its properties' table.
public enum SyncCodec {
    /// `Sync1`'s properties as a status's shape gives them, in the order introspection lists
    /// them (the shape's), each typed by its definition.
    public static let fields: [PropertyField<SyncStatus.Wire>] = [
        PropertyField(BusContract.Sync1.loggedIn) { $0.loggedIn }, PropertyField(BusContract.Sync1.server) { $0.server },
        PropertyField(BusContract.Sync1.user) { $0.user }, PropertyField(BusContract.Sync1.device) { $0.device },
        PropertyField(BusContract.Sync1.caption) { $0.caption }, PropertyField(BusContract.Sync1.flavour) { $0.flavour },
        PropertyField(BusContract.Sync1.lastSync) { $0.lastSync }, PropertyField(BusContract.Sync1.queued) { $0.queued },
        PropertyField(BusContract.Sync1.lastError) { $0.lastError }, PropertyField(BusContract.Sync1.syncing) { $0.syncing },
        PropertyField(BusContract.Sync1.passwordStore) { $0.passwordStore },
    ]
}
