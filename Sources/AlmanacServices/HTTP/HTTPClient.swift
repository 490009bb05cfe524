public import FoundationEssentials
import AlmanacCore
import AlmanacModels

/// A small HTTP client over libcurl (`CurlTransfer`): an identifying User-Agent, a timeout,
/// compression (libcurl asks for and inflates it), conditional requests (a URL fetched before is
/// asked for with `If-None-Match`/`If-Modified-Since`, and a `304` is answered from the body
/// kept from last time), and errors that say what failed.
public struct HTTPClient: Sendable {
    /// What a GET returned.
    public struct Response: Sendable {
        public let status: Int
        public let body: Data
        public let headers: [String: String]
        /// Where the answer came from, after redirects.
        public let url: URL?
        /// Where a permanent redirect (301, 308) on the way pointed: the new address to use.
        public var movedTo: URL? = nil
        /// Whose network the answer came from (`HTTPHead.reach`: every hop's, through a
        /// proxy as the addresses are written), when known.
        public var reach: AddressReach? = nil
    }

    public static let userAgent = "almanacd/0.1.0 (+https://github.com/almanac; a per-user weather and podcast daemon)"

    private let downloads: BoundedDownloads
    private let timeout: Double
    private let accept: String
    private let maximumBytes: Int
    /// `nil` when requests are never conditional.
    private let validators: ConditionalCache?

    /// - Parameters:
    ///   - timeout: seconds a request may wait for data (twice that for the whole answer).
    ///   - accept: the `Accept` header, JSON unless said otherwise.
    ///   - maximumBytes: a larger answer is an error (and is not kept).
    ///   - conditional: ask again with the validators of the last answer. A `304` is then
    ///     answered with the body kept from last time when it was small (at most 256 KiB),
    ///     and with an empty body otherwise: the caller knows nothing changed. A caller that
    ///     keeps what it read itself (what parsed, say) leaves this off and sends its own
    ///     `If-None-Match`/`If-Modified-Since` in `get`'s `headers`: a `304` comes with an empty body.
    ///   - validators: where the validators outlive the process (none: in memory only).
    ///   - redirectsElsewhere: whether a redirect to another origin (scheme, host, port) is
    ///     followed (without the request's `Authorization` and `Cookie`) or refused, as the
    ///     sync's client has it: its session and password are for its server alone.
    ///
    /// No client keeps cookies: the sync's client sends its session's itself.
    public init(timeout: Double = 20, accept: String = "application/json", maximumBytes: Int = 32 * 1024 * 1024, conditional: Bool = true,
                validators archive: (any ValidatorArchive)? = nil, redirectsElsewhere: Bool = true) {
        downloads = BoundedDownloads(sameOriginOnly: !redirectsElsewhere)
        self.timeout = timeout
        self.accept = accept
        self.maximumBytes = maximumBytes
        validators = conditional ? ConditionalCache(archive: archive) : nil
    }

    /// Fetches `url`; throws `FetchError` for transport failures and for statuses other than 2xx.
    /// With `reachLimit`, no hop connects to an address it does not allow (`FetchError.refusedAddress`).
    public func get(_ url: URL, headers: [String: String] = [:], conditional: Bool = true, reachLimit: ReachLimit? = nil) async throws -> Response {
        // A user name and password in the URL are sent as HTTP Basic authentication, to this
        // host only (BoundedDownloads drops them on a redirect elsewhere), never in the URL.
        let credentials = FeedCredentials.of(url.absoluteString)
        var request = makeRequest(credentials == nil ? url : URL(string: FeedCredentials.removed(from: url.absoluteString)) ?? url, headers: headers)
        request.reachLimit = reachLimit
        if let credentials {
            request.setHeader("Authorization", "Basic " + Data("\(credentials.user):\(credentials.password)".utf8).base64EncodedString())
        }
        let kept = conditional ? validators?[url] : nil
        if let etag = kept?.etag { request.setHeader("If-None-Match", etag) }
        if let lastModified = kept?.lastModified { request.setHeader("If-Modified-Since", lastModified) }
        let (data, http, fields, movedTo): (Data, HTTPHead, [String: String], URL?)
        do {
            (data, http, fields, movedTo) = try await exchange(request, for: url)
        } catch is BoundedDownloads.AuthenticationRequired {
            throw FetchError(credentials == nil
                ? "\(url.host ?? "The server") answered HTTP 401: it wants a user name and password (https://NAME:PASSWORD@host/…)."
                : "\(url.host ?? "The server") answered HTTP 401: it refused the user name and password given.")
        }
        guard (200..<300).contains(http.status) || http.status == 304 else {
            throw FetchError("\(url.host ?? "The server") answered HTTP \(http.status).")
        }
        if http.status == 304 {
            // Validators the caller sent itself: it keeps what they stand for (the body is empty).
            let askedByCaller = headers.keys.contains { ["if-none-match", "if-modified-since"].contains($0.lowercased()) }
            guard kept != nil || askedByCaller else {
                throw FetchError("\(url.host ?? "The server") answered 304 Not Modified to a request that was not conditional.")
            }
            return Response(status: 304, body: kept?.body ?? Data(), headers: fields, url: http.url, movedTo: movedTo, reach: http.reach)
        }
        validators?[url] = ConditionalCache.Entry(etag: fields["etag"], lastModified: fields["last-modified"],
                                                  body: data.count <= ConditionalCache.maximumKeptBody ? data : nil)
        return Response(status: http.status, body: data, headers: fields, url: http.url, movedTo: movedTo, reach: http.reach)
    }

    /// Sends a request of any method (`POST` with a JSON body, say) and returns the answer
    /// whatever its status: a `401` challenge is answered with nothing and returned as status
    /// 401 with an empty body. Never conditional. Throws `FetchError` only when no answer came
    /// (unreachable, timeout), it was larger than `maximumBytes` (`tooLarge`), or it was a
    /// redirect to an address not on the web (`file:`).
    public func send(_ method: String, _ url: URL, body: Data? = nil, headers: [String: String] = [:]) async throws -> Response {
        var request = makeRequest(url, headers: headers)
        request.method = method
        request.body = body
        do {
            let (data, http, fields, movedTo) = try await exchange(request, for: url)
            return Response(status: http.status, body: data, headers: fields, url: http.url, movedTo: movedTo)
        } catch is BoundedDownloads.AuthenticationRequired {
            return Response(status: 401, body: Data(), headers: [:], url: url)
        }
    }

    /// A request for `url` with the client's `Accept` and waits, and `headers`.
    private func makeRequest(_ url: URL, headers: [String: String]) -> HTTPRequest {
        var request = HTTPRequest(url: url, headers: [("Accept", accept)], idleTimeout: timeout, totalTimeout: timeout * 2)
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.setHeader(name, value) }
        return request
    }

    /// Runs `request` (for `url`, as the caller named it) and gives the answer with its
    /// header names lowercased, or throws `FetchError` in words: no answer, too large, a
    /// redirect off the web. A 401 challenge is left to the caller
    /// (`BoundedDownloads.AuthenticationRequired`).
    private func exchange(_ request: HTTPRequest, for url: URL) async throws -> (Data, HTTPHead, [String: String], URL?) {
        let data: Data
        let head: HTTPHead
        let movedTo: URL?
        do {
            (data, head, movedTo) = try await downloads.data(for: request, limit: maximumBytes)
        } catch let challenge as BoundedDownloads.AuthenticationRequired {
            throw challenge
        } catch is BoundedDownloads.TooLarge {
            throw FetchError("\(url.host ?? "The server") sent more than the \(maximumBytes / 1024 / 1024) MiB Almanac reads.", tooLarge: true)
        } catch let refused as BoundedDownloads.RedirectRefused {
            throw FetchError.redirectRefused(from: url, to: refused.to, elsewhere: refused.elsewhere)
        } catch let error as TransportError where error.kind == .refusedAddress {
            throw FetchError.addressRefused(from: url, error.detail)
        } catch {
            throw FetchError.noAnswer(from: url, error, timeout: timeout)
        }
        return (data, head, head.headers, movedTo)
    }
}
