/// Why the download manager would not do what it was asked.
public enum DownloadRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// A limit on how much is queued, in all or for one client.
    case limit(String)
    /// Only the client that asked for a job may cancel it (anyone, once it has left the bus).
    case notOwner(String)
    /// No such job.
    case unknownJob(String)

    public var description: String {
        switch self {
        case .limit(let message), .notOwner(let message), .unknownJob(let message): message
        }
    }
}
