import AlmanacModels
public import DBus
import FoundationEssentials

/// `Sync1` on the bus beyond its values' shapes (`SyncStatus.Wire`, `SyncReport.Wire`,
/// `SyncAccount`): its properties' types.
public enum SyncCodec {
    /// `Sync1`'s properties and their types, in the order introspection lists them: the shape's.
    public static var propertyTypes: [(String, ValueType)] {
        guard case .dictionary(_, _, let entries)? = try? WireCoding.value(SyncStatus()) else { return [] }
        return entries.compactMap { entry in entry.key.stringValue.map { ($0, entry.value.unwrapped.type) } }
    }
}
