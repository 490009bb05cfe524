import FoundationEssentials

/// Runs `HTTPClient`'s requests: collects each answer's body and ends the transfer the
/// moment it passes its limit (after decompression, so a gzip bomb stops at the limit too),
/// and follows redirects only to http and https — and, for a client that wants it, only
/// on the origin first asked.
struct BoundedDownloads: Sendable {
    /// The body passed the limit; the transfer was ended.
    struct TooLarge: Error {}
    /// The server wants a user name and password (HTTP 401 with `WWW-Authenticate`) that
    /// the request did not have or that it refused.
    struct AuthenticationRequired: Error {}
    /// The server redirected to an address of another scheme (`file:`, `ftp:`), or
    /// (`elsewhere`) of another origin when the client follows none there: not followed.
    struct RedirectRefused: Error {
        let to: URL
        var elsewhere = false
    }

    /// Redirects to another origin (scheme, host, port) are refused rather than followed
    /// without credentials: a sync server's session is for that server alone.
    private let sameOriginOnly: Bool

    init(sameOriginOnly: Bool = false) {
        self.sameOriginOnly = sameOriginOnly
    }

    /// Runs `request`, at most `limit` bytes of body; gives the body, the answer's head and
    /// where a permanent redirect on the way pointed.
    func data(for request: HTTPRequest, limit: Int) async throws -> (Data, HTTPHead, movedTo: URL?) {
        let body = BodyCollector(limit: limit)
        let exchange = HTTPExchange { [sameOriginOnly] origin, target in
            let scheme = target.scheme?.lowercased()
            let web = scheme == "http" || scheme == "https"
            let elsewhere = HTTPExchange.origin(of: origin) != HTTPExchange.origin(of: target)
            return web && !(elsewhere && sameOriginOnly) ? nil : RedirectRefused(to: target, elsewhere: web)
        }
        let (head, movedTo) = try await exchange.run(request, handler: body)
        let (data, ending) = body.collected
        switch ending {
        case .tooLarge: throw TooLarge()
        case .challenged: throw AuthenticationRequired()
        case nil: break
        }
        guard let head else { throw TransportError(kind: .other, detail: "the answer ended early") }
        return (data, head, movedTo)
    }
}
