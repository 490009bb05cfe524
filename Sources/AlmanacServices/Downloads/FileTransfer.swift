import AlmanacCore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Glibc
import Locking
import Synchronization

/// One HTTP transfer of a download, streamed into its temporary file as it arrives: a
/// `206` is appended where the file ended (checked against `Content-Range`), a `200`
/// starts the file over, a `416` for a file already whole is accepted. Redirects go only to
/// http and https; more than `limit` bytes, or a write the disk refuses, ends the transfer.
/// The temporary file is never reached through a symbolic link (`O_NOFOLLOW`), and a new one
/// is created, never opened (`O_EXCL`): a link planted at its path is refused, not followed.
final class FileTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: all mutable state is behind `state`'s Mutex.
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
        var failure: (any Error)?
        /// The server said the file is whole already (`416` for the rest of it).
        var wholeAlready = false
        /// How it ended, kept until `run` waits for it (the task may end before).
        var result: Result<Outcome, any Error>?
        var continuation: CheckedContinuation<Outcome, any Error>?
        var task: URLSessionDataTask?
    }

    private let path: String
    private let resumeFrom: UInt64
    private let limit: UInt64
    private let progress: @Sendable (Outcome) -> Void
    private let state: Locked<State>

    init(path: String, resumeFrom: UInt64, limit: UInt64, progress: @escaping @Sendable (Outcome) -> Void) {
        self.path = path
        self.resumeFrom = resumeFrom
        self.limit = limit
        self.progress = progress
        state = Locked(State(outcome: Outcome(received: resumeFrom, total: 0)))
    }

    /// Runs `request` on a session of its own; throws what went wrong.
    func run(_ request: URLRequest, configuration: URLSessionConfiguration) async throws -> Outcome {
        try Task.checkCancellation()
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        state.withLock { $0.task = task }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ended = state.withLock { state -> Result<Outcome, any Error>? in
                    if state.result == nil { state.continuation = continuation }
                    return state.result
                }
                if let ended { continuation.resume(with: ended) } else { task.resume() }
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse else {
            fail(DownloadError("The server did not answer over HTTP."))
            return completionHandler(.cancel)
        }
        let header = { (name: String) in http.value(forHTTPHeaderField: name) }
        let host = http.url?.host ?? "The server"
        var start: UInt64 = 0
        var total: UInt64 = http.expectedContentLength >= 0 ? UInt64(http.expectedContentLength) : 0
        switch http.statusCode {
        case 206:
            guard let range = header("Content-Range").flatMap(Self.contentRange), range.start == resumeFrom else {
                let said = header("Content-Range").map { $0.printableLine(maximumLength: 100) }
                fail(DownloadError("\(host) resumed the download at another place than asked (\(said ?? "no Content-Range"))."))
                return completionHandler(.cancel)
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
                return completionHandler(.cancel)
            }
            fail(DownloadError("\(host) could not resume the download (HTTP 416); it starts over next time."))
            unlink(path)
            return completionHandler(.cancel)
        default:
            fail(DownloadError("\(host) answered HTTP \(http.statusCode) for the episode's audio."))
            return completionHandler(.cancel)
        }
        guard total <= limit else {
            fail(DownloadError("\(host) offers \(total / 1_048_576) MiB, more than the \(limit / 1_048_576) MiB Almanac downloads."))
            return completionHandler(.cancel)
        }
        let fd = start == 0 ? Self.create(path) : open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else {
            let why = errno == ELOOP || errno == EEXIST ? "it is a symbolic link or not a file, which Almanac does not write through" : String(cString: strerror(errno))
            fail(DownloadError("Cannot write \(path): \(why)."))
            return completionHandler(.cancel)
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
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let result = state.withLock { state -> Result<Outcome, DownloadError> in
            guard state.fd >= 0, state.failure == nil else { return .failure(DownloadError("")) }
            guard state.outcome.received + UInt64(data.count) <= limit else {
                return .failure(DownloadError("The server sent more than the \(limit / 1_048_576) MiB Almanac downloads."))
            }
            let written = data.withUnsafeBytes { buffer -> Int in
                var offset = 0
                while offset < buffer.count {
                    let n = write(state.fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if n < 0 { if errno == EINTR { continue }; return -1 }
                    offset += n
                }
                return offset
            }
            guard written == data.count else {
                return .failure(DownloadError("Cannot write \(path): \(String(cString: strerror(errno)))."))
            }
            state.outcome.received += UInt64(data.count)
            return .success(state.outcome)
        }
        switch result {
        case .success(let outcome): progress(outcome)
        case .failure(let error):
            if !error.description.isEmpty { fail(error) }
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        // What the server said counts: swift-corelibs-foundation turns `Location: file:///x`
        // into a request for http://host/x.
        let location = response.value(forHTTPHeaderField: "Location").flatMap { URL(string: $0, relativeTo: response.url) }
        let scheme = (location ?? request.url)?.scheme?.lowercased()
        let requested = request.url?.scheme?.lowercased()
        if (scheme == "http" || scheme == "https") && (requested == "http" || requested == "https") {
            completionHandler(request)
        } else {
            fail(DownloadError("The episode's audio redirects to \(scheme.map { "a \($0):" } ?? "another kind of") address; only http and https are followed."))
            completionHandler(nil)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, result) = state.withLock { state -> (CheckedContinuation<Outcome, any Error>?, Result<Outcome, any Error>) in
            if state.fd >= 0 { close(state.fd); state.fd = -1 }
            let result: Result<Outcome, any Error>
            if let failure = state.failure {
                result = .failure(failure)
            } else if state.wholeAlready || error == nil {
                result = .success(state.outcome)
            } else if (error as? URLError)?.code == .cancelled {
                result = .failure(CancellationError())
            } else {
                result = .failure(DownloadError("The transfer broke off: \(error!.localizedDescription)"))
            }
            defer { state.continuation = nil }
            if state.continuation == nil { state.result = result }
            return (state.continuation, result)
        }
        continuation?.resume(with: result)
    }

    /// The bytes the file holds so far.
    var received: UInt64 { state.withLock { $0.outcome.received } }

    /// Ends the transfer with `error` (what `run` throws).
    func abandon(_ error: DownloadError) {
        fail(error)
        state.withLock { $0.task }?.cancel()
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
        let parts = header.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bytes" else { return nil }
        let rangeAndTotal = parts[1].split(separator: "/", maxSplits: 1)
        guard rangeAndTotal.count == 2 else { return nil }
        let total = UInt64(rangeAndTotal[1])
        if rangeAndTotal[0] == "*" { return (nil, total) }
        return (rangeAndTotal[0].split(separator: "-").first.flatMap { UInt64($0) }, total)
    }
}
