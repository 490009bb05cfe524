public import AlmanacModels

/// Why a file an episode links to (its chapters, its transcript) gave nothing.
public typealias LinkedFileError = CodedError<LinkedFileCode>

/// What kind of failure (a client sees each as `FetchFailed`):
/// - `unreadable`: the file could not be fetched (an HTTP error status): try again next time.
/// - `unanswered`: its server did not answer (a timeout, unreachable): try again, but not at
///   once, as each try may wait a long time.
/// - `invalid`: the file is not of its format, is too large, or is not at an http(s)
///   address: trying again gives the same.
public enum LinkedFileCode: String, ErrorCode, CaseIterable {
    case unreadable, unanswered, invalid

    public static let defaultErrorName = ClientErrorName.fetchFailed
}
