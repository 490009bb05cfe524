import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Synchronization

/// URLSession's delegate for `HTTPClient`: collects each answer's body and cancels the
/// transfer the moment it passes its limit (after decompression, so a gzip bomb stops at the
/// limit too), and answers redirects only to http and https. One per session; each request
/// waits on its own continuation.
final class BoundedDownloads: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: all mutable state is in `transfers`, behind a Mutex.
    struct Transfer {
        var continuation: CheckedContinuation<(Data, URLResponse, movedTo: URL?), any Error>
        var limit: Int
        var body = Data()
        var response: URLResponse?
        var tooLarge = false
        /// Where a permanent redirect (301, 308) pointed, the last one followed.
        var movedTo: URL?
        /// The server asked for a user name and password (401 with `WWW-Authenticate`).
        var challenged = false
        /// A redirect not followed: to this address, of another scheme than http(s), or of
        /// another origin when the session follows none there.
        var refusedRedirect: URL?
        var refusedElsewhere = false
    }

    /// The body passed the limit; the transfer was cancelled.
    struct TooLarge: Error {}
    /// The server wants a user name and password (HTTP 401) that the request did not have or
    /// that it refused.
    struct AuthenticationRequired: Error {}
    /// The server redirected to an address of another scheme (`file:`, `ftp:`), or
    /// (`elsewhere`) of another origin when the session follows none there: not followed.
    struct RedirectRefused: Error {
        let to: URL
        var elsewhere = false
    }

    private let transfers = Locked<[Int: Transfer]>([:])
    /// Redirects to another origin (scheme, host, port) are refused rather than followed
    /// without credentials: a sync server's session is for that server alone.
    private let sameOriginOnly: Bool

    init(sameOriginOnly: Bool = false) {
        self.sameOriginOnly = sameOriginOnly
        super.init()
    }

    /// Runs `request` on `session` (whose delegate this is), at most `limit` bytes of body.
    func data(for request: URLRequest, session: URLSession, limit: Int) async throws -> (Data, URLResponse, movedTo: URL?) {
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfers.withLock { $0[task.taskIdentifier] = Transfer(continuation: continuation, limit: limit) }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let tooLarge = transfers.withLock { transfers -> Bool in
            transfers[dataTask.taskIdentifier]?.response = response
            guard let limit = transfers[dataTask.taskIdentifier]?.limit else { return false }
            return response.expectedContentLength > Int64(limit)
        }
        if tooLarge {
            transfers.withLock { $0[dataTask.taskIdentifier]?.tooLarge = true }
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let tooLarge = transfers.withLock { transfers -> Bool in
            // Changed in place: a copy of the transfer would share its body, and appending
            // to a shared body copies all of it, every chunk (20 MiB took 16 s, holding up
            // every other transfer of the session meanwhile).
            guard let index = transfers.index(forKey: dataTask.taskIdentifier) else { return false }
            guard transfers.values[index].body.count + data.count <= transfers.values[index].limit else {
                transfers.values[index].tooLarge = true
                transfers.values[index].body = Data()
                return true
            }
            transfers.values[index].body.append(data)
            return false
        }
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        // Only to the web: a redirect must not lead the daemon to another scheme. What the
        // server said counts (swift-corelibs-foundation turns `Location: file:///x` into a
        // request for http://host/x).
        let location = response.value(forHTTPHeaderField: "Location").flatMap { URL(string: $0, relativeTo: response.url) }
        let scheme = request.url?.scheme?.lowercased()
        let said = location?.scheme?.lowercased() ?? scheme
        let from = task.originalRequest?.url
        let elsewhere = from?.host?.lowercased() != request.url?.host?.lowercased() || from?.port != request.url?.port || from?.scheme?.lowercased() != scheme
        let web = (scheme == "http" || scheme == "https") && (said == "http" || said == "https")
        let allowed = web && !(elsewhere && sameOriginOnly)
        if allowed, [301, 308].contains(response.statusCode) {
            transfers.withLock { $0[task.taskIdentifier]?.movedTo = request.url }
        }
        if !allowed, let url = location ?? request.url {
            transfers.withLock { transfer in
                transfer[task.taskIdentifier]?.refusedRedirect = url
                transfer[task.taskIdentifier]?.refusedElsewhere = web
            }
        }
        // A feed's password, and a sync server's session cookie, go to their own origin
        // (scheme, host, port) only, not to wherever it redirects.
        var next = request
        if elsewhere {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
            next.setValue(nil, forHTTPHeaderField: "Cookie")
        }
        completionHandler(allowed ? next : nil)
    }

    /// A server asking for a password (401 with `WWW-Authenticate`) gets none from here: the
    /// `Authorization` header already carried the feed's own, so the 401 is the answer.
    /// (URLSession cancels the task; without this method it would wait for ever.)
    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        transfers.withLock { $0[task.taskIdentifier]?.challenged = true }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if transfer.tooLarge {
            transfer.continuation.resume(throwing: TooLarge())
        } else if transfer.challenged {
            transfer.continuation.resume(throwing: AuthenticationRequired())
        } else if let refused = transfer.refusedRedirect {
            transfer.continuation.resume(throwing: RedirectRefused(to: refused, elsewhere: transfer.refusedElsewhere))
        } else if let error {
            transfer.continuation.resume(throwing: error)
        } else if let response = transfer.response ?? task.response {
            transfer.continuation.resume(returning: (transfer.body, response, transfer.movedTo))
        } else {
            transfer.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}
