import AlmanacCore
import AlmanacModels
import FoundationEssentials
import Glibc
import Locking
import Synchronization

/// One HTTP transfer of a download, streamed into its temporary file as it arrives: a
/// `206` is appended where the file ended (checked against `Content-Range`), a `200`
/// starts the file over, a `416` for a file already whole is accepted. Redirects go only to
/// http and https; more than `limit` bytes, or a write the disk refuses, ends the transfer.
/// The temporary file is never reached through a symbolic link (`O_NOFOLLOW`), and a new one
/// is created, never opened (`O_EXCL`): a link planted at its path is refused, not followed.
final class FileTransfer: HTTPResponseHandler {
    struct Outcome: Sendable {
        var received: UInt64
        /// 0 when the server did not say.
        var total: UInt64
        var validator: String?
        var contentDisposition: String?
        var mimeType: String?
        var url: URL?
    }

    private struct State {
        var fd: Int32 = -1
        var outcome: Outcome
        var failure: DownloadError?
        /// The server said the file is whole already (`416` for the rest of it).
        var wholeAlready = false
    }

    private let path: String
    private let resumeFrom: UInt64
    private let limit: UInt64
    private let progress: @Sendable (Outcome) -> Void
    private let state: Locked<State>
    /// Only http and https, wherever they lead.
    private let exchange = HTTPExchange { _, target in
        let scheme = target.scheme?.lowercased()
        guard scheme != "http" && scheme != "https" else { return nil }
        return DownloadError("The episode's audio redirects to \(scheme.map { "a \($0):" } ?? "another kind of") address; only http and https are followed.")
    }

    /// Streams into `path` from `resumeFrom` bytes on, which `validator` vouches for (`nil`: none).
    init(path: String, resumeFrom: UInt64, validator: String?, limit: UInt64, progress: @escaping @Sendable (Outcome) -> Void) {
        self.path = path
        self.resumeFrom = resumeFrom
        self.limit = limit
        self.progress = progress
        state = Locked(State(outcome: Outcome(received: resumeFrom, total: 0, validator: validator)))
    }

    /// Runs `request`; throws what went wrong (`CancellationError` when the task was cancelled).
    func run(_ request: HTTPRequest) async throws -> Outcome {
        let ending: Result<HTTPHead?, any Error>
        do {
            ending = .success(try await exchange.run(request, handler: self).head)
        } catch {
            ending = .failure(error)
        }
        return try state.withLock { state -> Result<Outcome, any Error> in
            if state.fd >= 0 { close(state.fd); state.fd = -1 }
            if let failure = state.failure { return .failure(failure) }
            switch ending {
            case .success(let head?) where (200..<300).contains(head.status):
                return .success(state.outcome)
            case .success:
                return state.wholeAlready ? .success(state.outcome) : .failure(DownloadError("The transfer ended before the file began."))
            case .failure(let error as DownloadError):
                return .failure(error)
            case .failure(let error as CancellationError):
                return .failure(error)
            case .failure(let error as TransportError) where error.kind == .refusedAddress:
                return .failure(DownloadError("The episode's audio led to \(error.detail); the daemon downloads a feed's files from there by itself only when the feed was read from such an address, so nothing was sent to it. Download the episode yourself (almanac episode download) to fetch it."))
            case .failure(let error):
                return .failure(DownloadError("The transfer broke off: \(error)."))
            }
        }.get()
    }

    func received(_ http: HTTPHead) -> Bool {
        let header = { (name: String) in http.headers[name.lowercased()] }
        let host = http.url.host ?? "The server"
        var start: UInt64 = 0
        var total: UInt64 = http.expectedLength ?? 0
        switch http.status {
        case 206:
            guard let range = header("Content-Range").flatMap(Self.contentRange), range.start == resumeFrom else {
                let said = header("Content-Range").map { $0.printableLine(maximumLength: 100) }
                fail(DownloadError("\(host) resumed the download at another place than asked (\(said ?? "no Content-Range"))."))
                return false
            }
            start = resumeFrom
            total = range.total ?? (total > 0 ? resumeFrom + total : 0)
        case 200..<300:
            start = 0
        case 416 where resumeFrom > 0:
            // Asked for the rest of a file that is whole already?
            if let range = header("Content-Range").flatMap(Self.contentRange), range.total == resumeFrom {
                state.withLock { state in
                    state.outcome.total = resumeFrom
                    state.wholeAlready = true
                }
                return false
            }
            fail(DownloadError("\(host) could not resume the download (HTTP 416); it starts over next time."))
            unlink(path)
            return false
        default:
            fail(DownloadError("\(host) answered HTTP \(http.status) for the episode's audio."))
            return false
        }
        guard total <= limit else {
            fail(DownloadError("\(host) offers \(total / 1_048_576) MiB, more than the \(limit / 1_048_576) MiB Almanac downloads."))
            return false
        }
        let fd = start == 0 ? Self.create(path) : open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            let why = errno == ELOOP || errno == EEXIST ? "it is a symbolic link or not a file, which Almanac does not write through" : String(cString: strerror(errno))
            fail(DownloadError("Cannot write \(path): \(why)."))
            return false
        }
        let outcome = state.withLock { state -> Outcome in
            state.fd = fd
            state.outcome.received = start
            state.outcome.total = total
            state.outcome.validator = header("ETag") ?? header("Last-Modified")
            state.outcome.contentDisposition = header("Content-Disposition")
            state.outcome.mimeType = header("Content-Type")
            state.outcome.url = http.url
            return state.outcome
        }
        progress(outcome)
        return true
    }

    func received(_ data: UnsafeRawBufferPointer) -> Bool {
        let result = state.withLock { state -> Result<Outcome, DownloadError> in
            guard state.fd >= 0, state.failure == nil else { return .failure(DownloadError("")) }
            guard state.outcome.received + UInt64(data.count) <= limit else {
                return .failure(DownloadError("The server sent more than the \(limit / 1_048_576) MiB Almanac downloads."))
            }
            var offset = 0
            while offset < data.count {
                let n = write(state.fd, data.baseAddress! + offset, data.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return .failure(DownloadError("Cannot write \(path): \(String(cString: strerror(errno)))."))
                }
                offset += n
            }
            state.outcome.received += UInt64(data.count)
            return .success(state.outcome)
        }
        switch result {
        case .success(let outcome):
            progress(outcome)
            return true
        case .failure(let error):
            if !error.description.isEmpty { fail(error) }
            return false
        }
    }

    /// The bytes the file holds so far.
    var received: UInt64 { state.withLock { $0.outcome.received } }

    /// The validator of the bytes the file holds: the last answer's, or the one given.
    var validator: String? { state.withLock { $0.outcome.validator } }

    /// Ends the transfer with `error` (what `run` throws).
    func abandon(_ error: DownloadError) {
        fail(error)
        exchange.cancel()
    }

    /// A new temporary file, made by this call: one left by an earlier try (a regular file)
    /// is removed first; anything else at the path (a symbolic link, a folder) is left alone
    /// and the call fails (-1, `errno` set).
    static func create(_ path: String) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW
        let fd = open(path, flags, 0o600)
        guard fd < 0, errno == EEXIST else { return fd }
        var found = stat()
        guard lstat(path, &found) == 0, found.st_mode & S_IFMT == S_IFREG, unlink(path) == 0 else {
            errno = EEXIST
            return -1
        }
        return open(path, flags, 0o600)
    }

    private func fail(_ error: DownloadError) {
        state.withLock { if $0.failure == nil { $0.failure = error } }
    }

    /// `bytes START-END/TOTAL` (TOTAL may be `*`), or `bytes */TOTAL`.
    static func contentRange(_ header: String) -> (start: UInt64?, total: UInt64?)? {
        let parts = header.trimmed.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
        let rangeAndTotal = parts[1].split(separator: "/", maxSplits: 1)
        guard rangeAndTotal.count == 2 else { return nil }
        let total = UInt64(rangeAndTotal[1])
        if rangeAndTotal[0] == "*" { return (nil, total) }
        return (rangeAndTotal[0].split(separator: "-").first.flatMap { UInt64($0) }, total)
    }
}
