/// How far a transfer is, as a downloader reports it.
public struct DownloadProgress: Sendable, Hashable {
    /// Bytes in the temporary file (including those received before a resume).
    public var received: UInt64
    /// The whole size (0: the server did not say).
    public var total: UInt64
    /// The server's validator for these bytes (`ETag`, else `Last-Modified`).
    public var validator: String?

    public init(received: UInt64, total: UInt64, validator: String? = nil) {
        self.received = received
        self.total = total
        self.validator = validator
    }
}
