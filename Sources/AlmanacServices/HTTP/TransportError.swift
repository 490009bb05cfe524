/// No answer came (or it broke off), in libcurl's terms sorted into what `FetchError` and
/// the downloader say about it.
struct TransportError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        /// Nothing came for the idle timeout, or the whole request took longer than allowed.
        case timedOut
        /// The connection was refused: nothing listens there.
        case refused
        /// The host name is not known.
        case unknownHost
        /// No network to reach it by.
        case offline
        /// The connection closed before the answer was complete.
        case connectionLost
        /// TLS failed: the certificate, or the handshake.
        case insecure
        /// The server redirected more than `HTTPExchange.maximumRedirects` times.
        case tooManyRedirects
        /// Every address to connect to was one the request's `ReachLimit` does not allow
        /// (`detail`: the last, and whose network it is on).
        case refusedAddress
        case other
    }

    let kind: Kind
    /// libcurl's own words for it.
    let detail: String

    var description: String {
        switch kind {
        case .timedOut: "the server sent nothing for too long"
        case .refused: "the connection was refused"
        case .unknownHost: "no such host is known"
        case .offline: "this computer is not connected to a network"
        case .connectionLost: "the connection closed before the answer was complete"
        case .tooManyRedirects: "it redirected more than \(HTTPExchange.maximumRedirects) times"
        case .insecure, .refusedAddress, .other: detail
        }
    }
}
