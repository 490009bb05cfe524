import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking

/// A URLSession made on first use. Making one starts libcurl (and with it OpenSSL's and
/// GnuTLS's state); a daemon with nothing to fetch never does (docs/performance.md, "Memory").
final class LazySession: Sendable {
    private let configuration: @Sendable () -> URLSessionConfiguration
    private let delegate: any URLSessionDelegate & Sendable
    private let made = Locked<URLSession?>(nil)

    init(delegate: any URLSessionDelegate & Sendable, configuration: @escaping @Sendable () -> URLSessionConfiguration) {
        self.delegate = delegate
        self.configuration = configuration
    }

    /// The session, made now if this is the first call.
    var session: URLSession {
        made.withLock { made in
            if let made { return made }
            let session = URLSession(configuration: configuration(), delegate: delegate, delegateQueue: nil)
            made = session
            return session
        }
    }
}
