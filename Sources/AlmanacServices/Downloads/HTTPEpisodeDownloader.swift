public import AlmanacCore
public import AlmanacModels
import FoundationEssentials
import Glibc
import Synchronization

/// Downloads episodes over HTTP(S) into their folders: resumes with `Range`/`If-Range` from
/// what the temporary file holds (so a broken transfer, or a restart of the daemon, goes on
/// where it stopped), retries a transfer that broke off a few times, checks the size the
/// server announced, and moves the complete file to its final, safe name. A job may be held
/// to a `ReachLimit` (`reach`): the daemon holds its own downloads (auto-download) to the
/// feed's, so a feed cannot send it to this computer or the LAN unasked (docs/security.md).
public struct HTTPEpisodeDownloader: EpisodeDownloading {
    /// Tries of one download before it fails (each resumes the one before).
    public static let attempts = 4

    private let timeout: Double
    private let maximumBytes: UInt64
    private let retryDelay: Double
    private let stall: DownloadStall
    private let reach: @Sendable (DownloadJob) -> ReachLimit?

    /// - Parameters:
    ///   - timeout: seconds without data before a transfer counts as broken.
    ///   - maximumBytes: a larger file is refused.
    ///   - retryDelay: seconds before the first retry (doubling after).
    ///   - stall: when a transfer that still trickles is given up (not tried again).
    ///   - reach: where a job may connect (`nil`: anywhere), asked as each transfer starts.
    public init(timeout: Double = 30, maximumBytes: UInt64 = 8 << 30, retryDelay: Double = 1, stall: DownloadStall = DownloadStall(),
                reach: @escaping @Sendable (DownloadJob) -> ReachLimit? = { _ in nil }) {
        self.reach = reach
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.retryDelay = retryDelay
        self.stall = stall
    }

    public func download(_ job: DownloadJob, progress: @escaping @Sendable (DownloadProgress) -> Void) async throws -> String {
        guard let url = URL(string: job.url), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw DownloadError("'\(job.url.prefix(200))' is not an http or https address.")
        }
        try DownloadFolder.prepare(job.folder)
        let temporary = job.folder + "/" + job.temporaryName
        // The validator of the bytes the temporary file holds (each transfer's, as its response came).
        var validator = job.validator
        var lastError: any Error = DownloadError("The download did not start.")
        for attempt in 0..<Self.attempts {
            if attempt > 0 { try await RealTime.sleep(for: .milliseconds(Int(retryDelay * 1000) << (attempt - 1))) }
            // Bytes nothing vouches for (the server gave no ETag or Last-Modified) are not continued:
            // the file may have changed since, and a mix of two files is worse than starting over.
            let have = validator == nil ? 0 : DownloadFolder.size(of: temporary)
            // Compressed bytes cannot be resumed by offset.
            var request = HTTPRequest(url: url, headers: [("Accept-Encoding", "identity")], idleTimeout: timeout,
                                      totalTimeout: 7 * 86_400, decompress: false)
            request.reachLimit = reach(job)
            if have > 0, let validator {
                request.setHeader("Range", "bytes=\(have)-")
                request.setHeader("If-Range", validator)
            }
            let transfer = FileTransfer(path: temporary, resumeFrom: have, validator: validator, limit: maximumBytes) { outcome in
                progress(DownloadProgress(received: outcome.received, total: outcome.total, validator: outcome.validator))
            }
            let outcome: FileTransfer.Outcome
            do {
                outcome = try await Self.run(transfer, request, watched: stall, host: url.host ?? "The server")
            } catch let error as DownloadError where error.description.hasPrefix("The transfer broke off") {
                validator = transfer.validator
                lastError = error
                continue
            }
            validator = outcome.validator
            guard outcome.total == 0 || outcome.received == outcome.total else {
                lastError = DownloadError("\(url.host ?? "The server") sent \(outcome.received) of the \(outcome.total) bytes it announced.")
                continue
            }
            let ext = SafeFileName.fileExtension(contentDisposition: outcome.contentDisposition,
                                                 url: outcome.url?.absoluteString ?? job.url, mimeType: outcome.mimeType)
            let name = SafeFileName.fileName(title: job.name, fallback: job.episodeID, extension: ext)
            // Cancelled as the last bytes came: the file is not given its name.
            try Task.checkCancellation()
            return try DownloadFolder.finish(temporary, in: job.folder, as: name)
        }
        throw lastError
    }

    /// Runs `transfer` while a child task watches the bytes coming: a server that all but
    /// stopped is given up, saying so.
    private static func run(_ transfer: FileTransfer, _ request: HTTPRequest, watched stall: DownloadStall, host: String) async throws -> FileTransfer.Outcome {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var (last, slow) = (transfer.received, 0)
                while true {
                    do { try await RealTime.sleep(for: stall.window) } catch { return }
                    let now = transfer.received
                    slow = now &- last < stall.minimumBytes ? slow + 1 : 0
                    last = now
                    if slow >= stall.windows {
                        transfer.abandon(DownloadError(stall.reason(host: host)))
                        return
                    }
                }
            }
            defer { group.cancelAll() }
            return try await transfer.run(request)
        }
    }

    public func discard(_ job: DownloadJob) {
        try? DownloadFolder.remove(job.folder + "/" + job.temporaryName)
    }

    public func delete(file: String) throws {
        try DownloadFolder.remove(file)
    }

    public func exists(file: String) -> Bool {
        access(file, F_OK) == 0
    }
}
