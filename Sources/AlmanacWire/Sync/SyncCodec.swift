import AlmanacModels
public import DBus
import FoundationEssentials

/// `Sync1` on the bus beyond its values' shapes (`SyncStatus.Wire`, `SyncReport.Wire`,
/// `SyncAccount`): its properties' types, and its failures as bus errors.
public enum SyncCodec {
    /// `Sync1`'s properties and their types, in the order introspection lists them: the shape's.
    public static var propertyTypes: [(String, ValueType)] {
        guard case .dictionary(_, _, let entries)? = try? WireCoding.value(SyncStatus()) else { return [] }
        return entries.compactMap { entry in entry.key.stringValue.map { ($0, entry.value.unwrapped.type) } }
    }

    /// A sync failure as a bus error: `InvalidArgs` for input refused, `NotLoggedIn`,
    /// `AuthenticationFailed` for a refused password, `SyncFailed` for the rest.
    public static func busError(_ error: any Error) -> BusError {
        switch error {
        case let error as BusError: return error
        case let error as SyncError:
            switch error.code {
            case .invalid: return BusError.invalidArgs(error.message)
            case .notLoggedIn: return BusError(BusContract.notLoggedIn, error.message)
            case .loggedIn: return BusError(BusContract.alreadyLoggedIn, error.message)
            case .refused: return BusError(BusContract.authenticationFailed, error.message)
            default: return BusError(BusContract.syncFailed, error.message)
            }
        default: return BusError(BusContract.syncFailed, "\(error)")
        }
    }
}
