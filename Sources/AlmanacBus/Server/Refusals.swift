import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

/// The core's refusals as bus errors, the same for every member: `InvalidArgs` for input it
/// refuses, `UnknownLocation` for a place that is not saved, `Failed` when the disk refused
/// (and then nothing changed), `SearchTooBroad` for a search past its time budget, `LimitsExceeded`,
/// `AccessDenied` and `UnknownObject` for downloads past a limit, not the caller's, or gone.
enum Refusals {
    @discardableResult
    static func translated<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw translation(of: error)
        }
    }

    /// `translated(_:)` for a body that awaits.
    @discardableResult
    static func translated<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw translation(of: error)
        }
    }

    /// A result whose error is translated as `translated(_:)` would throw it.
    static func translated<T>(_ result: Result<T, any Error>) -> Result<T, any Error> {
        result.mapError(translation)
    }

    private static func translation(of error: any Error) -> any Error {
        switch error {
        case let error as SubmissionError: BusError.invalidArgs(error.message)
        case let error as SearchTooBroad: BusError(BusContract.searchTooBroad, error.message)
        case let error as LocationNotSaved: BusError(BusContract.unknownLocation, error.message)
        case let error as StorageError: BusError(.failed, "\(error) Nothing was changed.")
        case DownloadRefusal.limit(let message): BusError(.limitsExceeded, message)
        case DownloadRefusal.notOwner(let message): BusError.accessDenied(message)
        case DownloadRefusal.unknownJob(let message): BusError(.unknownObject, message)
        default: error
        }
    }
}
