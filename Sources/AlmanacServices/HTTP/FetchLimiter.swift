/// At most `width` fetches at once, and at most `perHost` of them from one host, however
/// many refreshes ask: a caller waits its turn in `acquire` and hands it on in `release`.
/// Waiters are let in in the order they came, skipping those whose host is full (so one
/// slow server does not hold up the others), as newsboat and browsers spare a server.
/// The daemon makes one for every feed read (`RSSFeedFetcher.feedReadLimiter()`), which
/// the feed reader and each `FeedInspector` share.
public actor FetchLimiter {
    private let width: Int
    private let perHost: Int
    private var running = 0
    private var runningByHost: [String: Int] = [:]
    private var waiting: [(host: String?, continuation: CheckedContinuation<Void, Never>)] = []

    public init(width: Int, perHost: Int = .max) {
        self.width = max(1, width)
        self.perHost = max(1, perHost)
    }

    /// Waits until a fetch from `host` (`nil`: any, not counted per host) may start.
    func acquire(host: String? = nil) async {
        if fits(host) {
            start(host)
            return
        }
        await withCheckedContinuation { waiting.append((host, $0)) }
    }

    /// A fetch from `host` ended: the first waiters that fit now start.
    func release(host: String? = nil) {
        running -= 1
        if let host {
            runningByHost[host, default: 1] -= 1
            if runningByHost[host] == 0 { runningByHost[host] = nil }
        }
        var index = 0
        while index < waiting.count, running < width {
            guard fits(waiting[index].host) else {
                index += 1
                continue
            }
            let next = waiting.remove(at: index)
            start(next.host)
            next.continuation.resume()
        }
    }

    private func fits(_ host: String?) -> Bool {
        running < width && (host.map { runningByHost[$0, default: 0] < perHost } ?? true)
    }

    private func start(_ host: String?) {
        running += 1
        if let host { runningByHost[host, default: 0] += 1 }
    }

    /// The host a fetch of `url` goes to, lower-cased, for `perHost` (`nil` when it has none).
    nonisolated static func host(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return nil }
        let authority = url[url.index(colon, offsetBy: 3)...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@").last.map { $0.lowercased() } ?? ""
        return host.isEmpty ? nil : host
    }
}
