import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

/// The core's refusals as bus errors, the same for every member: `InvalidArgs` for input it
/// refuses, `UnknownLocation` for a place that is not saved, `Failed` when the disk refused
/// (and then nothing changed), `LimitsExceeded`,
/// `AccessDenied` and `UnknownObject` for downloads past a limit, not the caller's, or gone.
enum Refusals {
    @discardableResult
    static func translated<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SubmissionError {
            throw BusError.invalidArgs(error.message)
        } catch let error as LocationNotSaved {
            throw BusError(BusContract.unknownLocation, error.message)
        } catch let error as StorageError {
            throw BusError(.failed, "\(error) Nothing was changed.")
        } catch let error as DownloadRefusal {
            switch error {
            case .limit(let message): throw BusError(.limitsExceeded, message)
            case .notOwner(let message): throw BusError.accessDenied(message)
            case .unknownJob(let message): throw BusError(.unknownObject, message)
            }
        }
    }

    /// A result whose error is translated as `translated(_:)` would throw it.
    static func translated<T>(_ result: Result<T, any Error>) -> Result<T, any Error> {
        Result { try translated { try result.get() } }
    }
}
