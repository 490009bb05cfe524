import AlmanacWire
import AlmanacModels
import ArgumentParser
import DBus

/// `almanac podcasts refresh [FEED]`.
struct PodcastsRefresh: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh", abstract: "Reads one podcast's feed now, or every feed; returns when done.",
        discussion: "Every feed: the daemon reads them sixteen at a time, at most two from one server, with a progress line here on a terminal. Feeds that could not be read are named on standard error, and the exit status is then 65."
    )

    @ArgumentParser.Argument(help: "A podcast id or feed URL (default: all).")
    var podcast: String?

    @OptionGroup var common: CommonOptions

    /// `RefreshPodcast` calls in flight: the daemon reads sixteen at a time, at most two from one
    /// server, and queues the rest; this only bounds the calls waiting for an answer (a
    /// strict bus allows a client 128).
    static let callsInFlight = 100

    func run() async throws {
        try await withClient(common) { client in
            if let podcast {
                try await client.refreshPodcasts(podcast)
                return
            }
            // Every feed asked for at once: the daemon's feed reader reads them as its scheduled
            // reads are read (sixteen at a time, at most two from one server), so a server 100 ms
            // away no longer makes 200 feeds wait in line. Each failure is told with its feed, in
            // the order the feeds are listed.
            let subscriptions = try await client.subscriptions()
            let progress = RefreshProgress(total: subscriptions.count, terminal: Terminal())
            var failures: [Int: (Podcast, BusError)] = [:]
            try await withThrowingTaskGroup(of: (Int, Podcast, BusError?).self) { group in
                for (sent, (index, subscription)) in Self.spreadOverServers(subscriptions).enumerated() {
                    if sent >= Self.callsInFlight, let (done, podcast, error) = try await group.next() {
                        if let error { failures[done] = (podcast, error) }
                        progress.finished(one: error == nil)
                    }
                    group.addTask {
                        do {
                            // Long: the call waits its turn in the daemon's queue.
                            try await client.refreshPodcast(subscription.id, timeout: .seconds(600))
                            return (index, subscription, nil)
                        } catch let error as BusError where error.name == BusContract.fetchFailed {
                            return (index, subscription, error)
                        }
                    }
                }
                for try await (done, podcast, error) in group {
                    if let error { failures[done] = (podcast, error) }
                    progress.finished(one: error == nil)
                }
            }
            progress.clear()
            for (_, (subscription, error)) in failures.sorted(by: { $0.key < $1.key }) {
                Terminal.error("cannot read \(subscription.title): \(error.message)", hint: "try again later, or check the feed with `almanac podcasts inspect \(subscription.feedURL)`")
            }
            if !failures.isEmpty { throw Exit.refused }
        }
    }

    /// The feeds, each with its place in `feeds`, one server after another: every server's
    /// first feed, then every server's second, and so on. The daemon takes 16 of one client's
    /// calls at a time and reads at most two feeds of one server at once, so a run of one
    /// server's feeds would leave its reader waiting while other servers' feeds queue behind.
    static func spreadOverServers(_ feeds: [Podcast]) -> [(index: Int, podcast: Podcast)] {
        var seen: [String: Int] = [:]
        let ranks = feeds.map { feed in
            let server = self.server(of: feed.feedURL)
            defer { seen[server, default: 0] += 1 }
            return seen[server, default: 0]
        }
        return feeds.indices.sorted { (ranks[$0], $0) < (ranks[$1], $1) }.map { ($0, feeds[$0]) }
    }

    /// A feed URL's server as the daemon's feed reader counts it: host and port, lower-cased.
    static func server(of url: String) -> String {
        guard let start = url.firstRange(of: "://")?.upperBound else { return url }
        let authority = url[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return (authority.split(separator: "@").last.map(String.init) ?? "").lowercased()
    }
}
