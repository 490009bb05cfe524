import AlmanacBus
import AlmanacCore
import ArgumentParser
import DBus

/// `almanac podcasts refresh [FEED]`.
struct PodcastsRefresh: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh", abstract: "Reads one podcast's feed now, or every feed; returns when done.",
        discussion: "Every feed: eight at a time, at most two from one server, with a progress line on a terminal. Feeds that could not be read are named on standard error, and the exit status is then 65."
    )

    @ArgumentParser.Argument(help: "A podcast id or feed URL (default: all).")
    var podcast: String?

    @OptionGroup var common: CommonOptions

    /// Feeds read at once, and at most from one host.
    static let atOnce = 8
    static let perHost = 2

    /// The host of a feed URL, lower-cased ("" when it has none).
    static func host(_ url: String) -> String {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return "" }
        let rest = url[url.index(colon, offsetBy: 3)...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(authority.split(separator: "@").last ?? "").lowercased()
    }

    func run() async throws {
        try await withClient(common) { client in
            if let podcast {
                try await client.refreshPodcasts(podcast)
                return
            }
            // Several at once (a server 100 ms away no longer makes 200 feeds wait in line),
            // at most two per host (as newsboat and browsers spare a server); each failure is
            // told with its feed, in the order the feeds are listed.
            let subscriptions = try await client.subscriptions()
            let progress = RefreshProgress(total: subscriptions.count, terminal: Terminal())
            var failures: [Int: (Podcast, BusError)] = [:]
            var pending = Array(subscriptions.enumerated())
            var perHost: [String: Int] = [:]
            try await withThrowingTaskGroup(of: (Int, Podcast, String, BusError?).self) { group in
                var running = 0
                func startWhatFits() {
                    while running < Self.atOnce, let next = pending.firstIndex(where: { perHost[Self.host($0.element.feedURL), default: 0] < Self.perHost }) {
                        let (index, subscription) = pending.remove(at: next)
                        let host = Self.host(subscription.feedURL)
                        perHost[host, default: 0] += 1
                        running += 1
                        group.addTask {
                            do {
                                try await client.refreshPodcasts(subscription.id)
                                return (index, subscription, host, nil)
                            } catch let error as BusError where error.name == BusContract.fetchFailed {
                                return (index, subscription, host, error)
                            }
                        }
                    }
                }
                startWhatFits()
                while let (index, subscription, host, error) = try await group.next() {
                    running -= 1
                    perHost[host, default: 1] -= 1
                    if let error { failures[index] = (subscription, error) }
                    progress.finished(one: error == nil)
                    startWhatFits()
                }
            }
            progress.clear()
            for (_, (subscription, error)) in failures.sorted(by: { $0.key < $1.key }) {
                Terminal.error("cannot read \(subscription.title): \(error.message)", hint: "try again later, or check the feed with `almanac podcasts inspect \(subscription.feedURL)`")
            }
            if !failures.isEmpty { throw Exit.refused }
        }
    }
}
