internal import CCurl
import AlmanacCore
import FoundationEssentials
import Glibc

/// One HTTP request as a libcurl easy handle, run on `CurlLoop`'s thread: http and https
/// only, no redirect followed by libcurl (the caller decides: `HTTPExchange`), no signals,
/// Almanac's User-Agent, its waits (`HTTPRequest.idleTimeout`, `totalTimeout`) kept by the
/// loop, the proxy `ProxyChoice` chose (told to libcurl, which chooses nothing itself). The
/// answer's head and body go to a `HTTPResponseHandler` as they come; `run` ends when the
/// transfer does, and a cancelled task ends the transfer at once.
// @unchecked Sendable: its easy handle (and the state beside it) is set up on the caller's
// thread before `run` hands it to `CurlLoop`'s thread through the loop's locked inbox (the
// lock orders the two); from then on only that thread touches them (libcurl's callbacks,
// `begin`, `finish`). Other threads only call `cancel`, which touches nothing but the inbox.
final class CurlTransfer: @unchecked Sendable {
    /// How a transfer ended that did not fail.
    enum Ending {
        /// The whole answer came (its head, which the handler had too).
        case answered(HTTPHead)
        /// A redirect: its head, the handler told nothing.
        case redirected(HTTPHead)
        /// The handler ended it.
        case stopped
    }

    /// `nil` when libcurl is not there (`CurlLoop.shared.failure`): `run` then throws.
    private let easy: UnsafeMutableRawPointer?
    private let request: HTTPRequest
    private let handler: any HTTPResponseHandler
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    /// What libcurl asks before each connection when the request has a `ReachLimit`.
    private var addressGuard: UnsafeMutablePointer<ccurl_address_guard>?
    /// The last address the `ReachLimit` refused, in words (loop thread).
    private var refusedAddress: String?
    /// An address the `ReachLimit` allowed was connected to (loop thread): a failure is then
    /// that connection's, not the refusal's.
    private var allowedAddress = false
    private var cleanedUp = false
    /// libcurl took the limit to http and https (set up in `init`).
    private var webOnly = false
    /// It goes through a proxy (`ProxyChoice`): libcurl connects to the proxy, so the
    /// `ReachLimit` is kept on the URL's host (`HostReach`) rather than on that connection.
    private var proxied = false

    // Loop-thread state.
    private var lines: [String] = []
    private var head: HTTPHead?
    private var redirect: HTTPHead?
    private var stoppedByHandler = false
    private var lastActivity = RealTime.now
    private var deadline = RealTime.now
    private var timedOut = false
    /// Cancelled before it started, or while it ran.
    var cancelRequested = false
    private var continuation: CheckedContinuation<Ending, any Error>?

    init(_ request: HTTPRequest, handler: any HTTPResponseHandler) {
        self.request = request
        self.handler = handler
        easy = CurlLoop.shared.failure == nil ? ccurl_easy_init() : nil
        errorBuffer[0] = 0
        if easy != nil { configure() }
    }

    deinit {
        cleanUp()
        errorBuffer.deallocate()
        addressGuard?.deallocate()
    }

    /// Runs the request to its end; throws `TransportError` when no (whole) answer came and
    /// `CancellationError` when the task was cancelled.
    func run() async throws -> Ending {
        try Task.checkCancellation()
        if let failure = CurlLoop.shared.failure { throw TransportError(kind: .other, detail: failure) }
        guard easy != nil else { throw TransportError(kind: .other, detail: "libcurl could not make a transfer (curl_easy_init failed)") }
        guard webOnly else {
            throw TransportError(kind: .other, detail: "this libcurl is older than 7.85, which Almanac needs (it cannot limit a transfer to http and https)")
        }
        if proxied, let limit = request.reachLimit, let refused = await HostReach.refusal(of: request.url, by: limit) {
            throw TransportError(kind: .refusedAddress, detail: refused)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                self.continuation = continuation
                CurlLoop.shared.add(self)
            }
        } onCancel: {
            CurlLoop.shared.cancel(self)
        }
    }

    /// Ends the transfer (`run` throws `CancellationError`), from any thread.
    func cancel() {
        CurlLoop.shared.cancel(self)
    }

    // MARK: On the loop thread

    /// The handle to add to the multi handle; the clocks start now.
    func begin() -> UnsafeMutableRawPointer {
        lastActivity = RealTime.now
        deadline = RealTime.now + .milliseconds(Int64(request.totalTimeout * 1000))
        return easy!  // `run` adds only a transfer that has a handle
    }

    /// Whether it waited too long: for a byte, or in all. Marks it so.
    func hasTimedOut(at now: ContinuousClock.Instant) -> Bool {
        timedOut = now - lastActivity > .milliseconds(Int64(request.idleTimeout * 1000)) || now > deadline
        return timedOut
    }

    /// The transfer ended with `code` (its handle already out of the multi handle): `run` returns or throws.
    func finish(_ code: CURLcode) {
        let result: Result<Ending, any Error>
        if cancelRequested {
            result = .failure(CancellationError())
        } else if timedOut {
            result = .failure(TransportError(kind: .timedOut, detail: "timed out"))
        } else if let redirect {
            result = .success(.redirected(redirect))
        } else if stoppedByHandler {
            result = .success(.stopped)
        } else if code == CURLE_OK, let head {
            result = .success(.answered(head))
        } else if code == CURLE_OK {
            result = .failure(TransportError(kind: .other, detail: "the server did not answer over HTTP"))
        } else if let refusedAddress, !allowedAddress {
            result = .failure(TransportError(kind: .refusedAddress, detail: refusedAddress))
        } else {
            result = .failure(error(for: code))
        }
        cleanUp()
        let waiting = continuation
        continuation = nil
        waiting?.resume(with: result)
    }

    private func error(for code: CURLcode) -> TransportError {
        let words = errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: ccurl_easy_strerror(code))
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return TransportError(kind: .timedOut, detail: words)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return TransportError(kind: .unknownHost, detail: words)
        case CURLE_COULDNT_CONNECT:
            switch Int32(ccurl_info_long(easy, CURLINFO_OS_ERRNO)) {
            case ECONNREFUSED: return TransportError(kind: .refused, detail: words)
            case ENETUNREACH: return TransportError(kind: .offline, detail: words)
            default: return TransportError(kind: .other, detail: words)
            }
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return TransportError(kind: .connectionLost, detail: words)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return TransportError(kind: .insecure, detail: words)
        default:
            return TransportError(kind: .other, detail: words)
        }
    }

    /// One header line (libcurl hands them one by one, line break included).
    private func received(headerLine bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = RealTime.now
        guard head == nil, redirect == nil else { return true }  // trailers
        let line = String(decoding: bytes, as: UTF8.self)
        guard line == "\r\n" || line == "\n" else {
            lines.append(line)
            return true
        }
        defer { lines = [] }
        guard var answer = HTTPHead(lines: lines, url: request.url) else { return false }
        answer.reach = proxied ? request.url.host.map(AddressReach.init(writtenHost:))
            : ccurl_info_string(easy, CURLINFO_PRIMARY_IP).flatMap { AddressReach(text: String(cString: $0)) }
        if answer.status < 200 { return true }  // 100 Continue and the like: the answer follows
        if answer.redirectTarget != nil {
            // Its body is of no use: the next hop is the caller's to make.
            redirect = answer
            return false
        }
        head = answer
        guard handler.received(answer) else {
            stoppedByHandler = true
            return false
        }
        return true
    }

    private func received(body bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = RealTime.now
        guard head != nil else { return false }
        guard handler.received(bytes) else {
            stoppedByHandler = true
            return false
        }
        return true
    }

    /// Whether the connection about to be opened to `address` (`family`'s bytes, `nil` for
    /// a family other than IPv4 and IPv6) is one the request's `ReachLimit` allows.
    private func mayConnect(family: Int32, address: UnsafePointer<UInt8>?) -> Bool {
        guard let limit = request.reachLimit else { return true }
        let count = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0
        guard let address, count > 0, let reach = AddressReach(bytes: UnsafeBufferPointer(start: address, count: count)) else {
            refusedAddress = "an address that is not an IP address"
            return false
        }
        if limit.allows(reach) {
            allowedAddress = true
            return true
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let shown = inet_ntop(family, address, &text, socklen_t(text.count)) == nil ? "an address"
            : String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        refusedAddress = "\(shown), which is \(reach.words)"
        return false
    }

    // MARK: Setting up

    private func configure() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let writeBody: curl_write_callback = { pointer, size, count, context in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.received(body: UnsafeRawBufferPointer(start: pointer, count: size * count)) ? size * count : 0
        }
        let writeHeader: curl_write_callback = { pointer, size, count, context in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.received(headerLine: UnsafeRawBufferPointer(start: pointer, count: size * count)) ? size * count : 0
        }
        set(CURLOPT_URL, request.url.absoluteString)
        // Only the web, never a redirect by libcurl itself, no signals (threads), no progress meter.
        // A libcurl older than 7.85 knows no *_PROTOCOLS_STR: such a transfer fails rather than run unrestricted.
        webOnly = set(CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_OK && set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https") == CURLE_OK
        ccurl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        ccurl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        ccurl_setopt_long(easy, CURLOPT_NOPROGRESS, 1)
        set(CURLOPT_USERAGENT, HTTPClient.userAgent)
        // The proxy is chosen here, or none (""): libcurl reads no environment of its own.
        let proxy = ProxyChoice.current.proxy(for: request.url)
        proxied = proxy != nil
        set(CURLOPT_PROXY, proxy ?? "")
        if proxied { set(CURLOPT_NOPROXY, "") }
        ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        ccurl_setopt_write_function(easy, CURLOPT_WRITEFUNCTION, writeBody)
        ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        ccurl_setopt_write_function(easy, CURLOPT_HEADERFUNCTION, writeHeader)
        ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        if request.reachLimit != nil, !proxied {
            let check: ccurl_address_check = { context, family, address in
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.mayConnect(family: family, address: address) ? 1 : 0
            }
            addressGuard = .allocate(capacity: 1)
            addressGuard?.initialize(to: ccurl_address_guard(check: check, context: context))
            // Without the check the request would go anywhere: it fails instead.
            if ccurl_setopt_address_check(easy, addressGuard) != CURLE_OK { webOnly = false }
        }
        if request.decompress {
            set(CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl inflates
        } else {
            ccurl_setopt_long(easy, CURLOPT_HTTP_CONTENT_DECODING, 0)
        }
        switch request.method {
        case "GET":
            ccurl_setopt_long(easy, CURLOPT_HTTPGET, 1)
        case "HEAD":
            ccurl_setopt_long(easy, CURLOPT_NOBODY, 1)
        default:
            if request.method == "POST" {
                ccurl_setopt_long(easy, CURLOPT_POST, 1)
            } else {
                set(CURLOPT_CUSTOMREQUEST, request.method)
            }
            if request.method == "POST" || request.body != nil {
                let body = request.body ?? Data()
                ccurl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
                // COPYPOSTFIELDS copies the bytes; never NULL, which would have libcurl read standard input.
                let bytes = body.isEmpty ? Data([0]) : body
                bytes.withUnsafeBytes { _ = ccurl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
            }
        }
        // No `Expect: 100-continue` wait before a body.
        var fields = request.headers.map { "\($0.name): \($0.value)" }
        fields.append("Expect:")
        for field in fields { headerList = ccurl_slist_append(headerList, field) }
        ccurl_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList)
    }

    @discardableResult
    private func set(_ option: CURLoption, _ text: String) -> CURLcode {
        // libcurl copies string options.
        text.withCString { ccurl_setopt_pointer(easy, option, $0) }
    }

    private func cleanUp() {
        guard !cleanedUp, let easy else { return }
        cleanedUp = true
        ccurl_easy_cleanup(easy)
        ccurl_slist_free_all(headerList)
        headerList = nil
    }
}
