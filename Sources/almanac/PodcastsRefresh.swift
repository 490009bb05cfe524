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
                for (index, subscription) in subscriptions.enumerated() {
                    if index >= Self.callsInFlight, let (done, podcast, error) = try await group.next() {
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
}
