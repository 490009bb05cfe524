import FoundationEssentials
import Locking
import Synchronization

/// A request and the redirects it leads to, each hop a `CurlTransfer`: a redirect is
/// followed only when `refusal` finds nothing wrong with it; on the way to another origin
/// (scheme, host, port) the request loses its `Authorization` and `Cookie`; a `303` (and a
/// `301`/`302` to a `POST`) is followed with a `GET` without body, as browsers do.
final class HTTPExchange: Sendable {
    /// Hops after the first before the exchange gives up.
    static let maximumRedirects = 16

    /// Why a redirect from the address first asked (`origin`) to `target` is not followed,
    /// or `nil` to follow it.
    typealias Refusal = @Sendable (_ origin: URL, _ target: URL) -> (any Error)?

    private let refusal: Refusal
    private let current = Locked<(transfer: CurlTransfer?, cancelled: Bool)>((nil, false))

    init(refusal: @escaping Refusal) {
        self.refusal = refusal
    }

    /// Runs `request` to its answer, handed to `handler`. Gives that answer's head (`nil`
    /// when the handler ended the transfer), its `reach` that of every hop (`reach(of:)`), and
    /// where the last permanent redirect (301, 308) on the way pointed. Throws
    /// `TransportError`, `CancellationError`, or `refusal`'s error.
    func run(_ request: HTTPRequest, handler: any HTTPResponseHandler) async throws -> (head: HTTPHead?, movedTo: URL?) {
        let origin = request.url
        var request = request
        var movedTo: URL?
        var hops: [AddressReach?] = []
        for _ in 0...Self.maximumRedirects {
            let transfer = CurlTransfer(request, handler: handler)
            let cancelled = current.withLock { current in
                current.transfer = current.cancelled ? nil : transfer
                return current.cancelled
            }
            if cancelled { throw CancellationError() }
            // Let go of the hop when it ends: a handler that holds this exchange (FileTransfer) would otherwise keep itself alive.
            defer { current.withLock { $0.transfer = nil } }
            switch try await transfer.run() {
            case .answered(var head):
                head.reach = Self.reach(of: hops + [head.reach])
                return (head, movedTo)
            case .stopped:
                return (nil, movedTo)
            case .redirected(let head):
                hops.append(head.reach)
                guard let target = head.redirectTarget else { return (head, movedTo) }
                if let refused = refusal(origin, target) { throw refused }
                if Self.origin(of: target) != Self.origin(of: request.url) {
                    // A feed's password, and a sync server's session cookie, go to their own origin only.
                    request.setHeader("Authorization", nil)
                    request.setHeader("Cookie", nil)
                }
                if head.status == 303 && request.method != "HEAD" || [301, 302].contains(head.status) && request.method == "POST" {
                    request.method = "GET"
                    request.body = nil
                    request.setHeader("Content-Type", nil)
                }
                if [301, 308].contains(head.status) { movedTo = target }
                request.url = target
            }
        }
        throw TransportError(kind: .tooManyRedirects, detail: "too many redirects")
    }

    /// Ends the transfer under way (`run` throws `CancellationError`), and any it would make next.
    func cancel() {
        current.withLock { current in
            current.cancelled = true
            return current.transfer
        }?.cancel()
    }

    /// Whose network an answer that came over `hops` (their reaches, first to last) came
    /// from: the reach they all had, or else the internet. A public feed that redirects to
    /// one on this computer or the LAN is no local feed, nor is a local one that sends
    /// Almanac to the internet (docs/decisions.md, issue 39).
    static func reach(of hops: [AddressReach?]) -> AddressReach? {
        Set(hops).count == 1 ? hops.first ?? nil : .public
    }

    /// Scheme, host and port, lower-cased, the port said or not.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
