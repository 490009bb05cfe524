public import AlmanacModels
import FoundationEssentials

/// Fetching failed; the message says where and why. A client that asked for the fetch
/// (`SearchPlaces`) sees it as `FetchFailed`.
public struct FetchError: NamedError, Sendable, CustomStringConvertible {
    public let description: String
    /// The answer was larger than the client reads (else: no answer, or an HTTP error).
    public var tooLarge = false
    /// No answer came at all (a timeout, a refused connection, an unknown host).
    public var unanswered = false
    /// Not asked: the address is one the request's `ReachLimit` does not allow.
    public var refusedAddress = false
    public init(_ description: String, tooLarge: Bool = false, unanswered: Bool = false) {
        self.description = description
        self.tooLarge = tooLarge
        self.unanswered = unanswered
    }

    public var errorName: ClientErrorName { .fetchFailed }
    public var message: String { description }

    /// `url` (or a redirect on the way) led to an address the request may not connect to
    /// (`where`: "127.0.0.1, which is on this computer (loopback)"). An address written in
    /// `url` itself is named once: "127.0.0.1, which is …", not "127.0.0.1 led to 127.0.0.1, …".
    static func addressRefused(from url: URL, _ where: String) -> FetchError {
        let host = url.host.map { $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0 }
        let said = host.map { `where`.hasPrefix($0 + ",") ? `where` : "\($0) led to \(`where`)" } ?? "The address led to \(`where`)"
        var error = FetchError("\(said); a file a feed names is fetched from there only when the feed itself was read from such an address, so nothing was sent to it")
        error.refusedAddress = true
        return error
    }

    /// `url`'s server redirected to an address that is not on the web (`file:`, `ftp:`), or
    /// (`elsewhere`) to another origin, for a client that follows none there.
    static func redirectRefused(from url: URL, to target: URL, elsewhere: Bool = false) -> FetchError {
        if elsewhere {
            let there = "\(target.scheme ?? "http")://\(target.host ?? "")" + (target.port.map { ":\($0)" } ?? "")
            return FetchError("\(url.host ?? "The server") redirected to \(there), which Almanac does not follow: the session and password are for \(url.host ?? "that server") alone. If the server moved, log out and log in at its new address.")
        }
        let scheme = target.scheme.map { "a \($0):" } ?? "an"
        return FetchError("\(url.host ?? "The server") redirected to \(scheme) address, which Almanac does not follow: only http and https.")
    }

    /// No answer came from `url`'s server, said as a person can act on it rather than in
    /// libcurl's words: a wait that ran out names the wait, a refused connection or an
    /// unknown host says so.
    static func noAnswer(from url: URL, _ error: any Error, timeout: Double) -> FetchError {
        // Cancelled here (the daemon stopping, a caller gone): no word about the server.
        if error is CancellationError {
            return FetchError("The request to \(url.host ?? url.absoluteString) was cancelled.")
        }
        var answer = noAnswerWords(from: url, error, timeout: timeout)
        answer.unanswered = true
        return answer
    }

    private static func noAnswerWords(from url: URL, _ error: any Error, timeout: Double) -> FetchError {
        let host = url.host ?? url.absoluteString
        let why = switch (error as? TransportError)?.kind {
        case .timedOut?: "\(host) sent nothing for \(Int(timeout.rounded())) s, so Almanac gave up waiting; the server may be down or overloaded."
        case .refused?: "Could not reach \(host): nothing answers there (the connection was refused)."
        case .unknownHost?: "Could not reach \(host): no such host is known (check the address, or the network)."
        case .offline?: "Could not reach \(host): this computer is not connected to a network."
        case .connectionLost?: "Could not reach \(host): it closed the connection before its answer was complete."
        case .insecure?: "Could not make a secure connection to \(host): its certificate was not accepted (\(error))."
        default: "Could not reach \(host): \(error)."
        }
        return FetchError(why)
    }
}
