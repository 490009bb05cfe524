public import AlmanacModels

/// Why the download manager would not do what it was asked.
public typealias DownloadRefusal = CodedError<DownloadRefusalCode>

/// What kind of refusal, and what a client sees: `limit`, a limit on how much is queued, in
/// all or for one client (`LimitsExceeded`); `notOwner`, only the client that asked for a job
/// may cancel it, anyone once it has left the bus (`AccessDenied`); `unknownJob`, no such
/// job (`UnknownObject`).
public enum DownloadRefusalCode: String, ErrorCode, CaseIterable {
    case limit, notOwner, unknownJob

    public static let defaultErrorName = ClientErrorName.failed
    public static let errorNames: [DownloadRefusalCode: ClientErrorName] = [.limit: .limitsExceeded, .notOwner: .accessDenied, .unknownJob: .unknownObject]
}

extension CodedError where Kind == DownloadRefusalCode {
    /// Past a limit on how much is queued.
    public static func limit(_ message: String) -> Self { Self(.limit, message) }
    /// Not the caller's job to cancel.
    public static func notOwner(_ message: String) -> Self { Self(.notOwner, message) }
    /// No such job.
    public static func unknownJob(_ message: String) -> Self { Self(.unknownJob, message) }
}
