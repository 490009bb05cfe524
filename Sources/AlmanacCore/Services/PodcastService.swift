public import AlmanacModels

/// Keeps podcast feeds read: the refresh loop. It asks its data source which feeds are due
/// (claimed there, so no other refresh reads them meanwhile), reads them through its
/// fetcher in one task group of at most `width` reads, and hands each read, as it ends, to
/// its delegate to record; both are weak. Every refresh takes this path: the scheduler's
/// (`refresh()`), `Refresh()`, `RefreshPodcast` and a new view's (`read`, with what the
/// caller claimed).
public final class PodcastService: Sendable {
    /// The weak links to the data source and the delegate.
    public let links = ServiceLinks<any PodcastServiceDataSource, any PodcastServiceDelegate>()
    /// Reads one feed.
    public let fetcher: any FeedFetching
    /// The most reads under way at once in one refresh (the fetcher may allow fewer, per
    /// server too); the rest wait their turn as tasks not yet made.
    public let width: Int

    /// A loop that reads through `fetcher`, at most `width` feeds at once.
    public init(fetcher: any FeedFetching, width: Int = 64) {
        self.fetcher = fetcher
        self.width = max(1, width)
    }

    /// Which feeds to read (held weakly).
    public var dataSource: (any PodcastServiceDataSource)? {
        get { links.dataSource }
        set { links.dataSource = newValue }
    }

    /// Who records each read (held weakly).
    public var delegate: (any PodcastServiceDelegate)? {
        get { links.delegate }
        set { links.delegate = newValue }
    }

    /// Reads the feeds the data source says are due, and returns once each is recorded.
    public func refresh() async {
        guard let dataSource else { return }
        await read(dataSource.podcastsToRefresh(for: self))
    }

    /// Reads `podcasts` (claimed already by the caller); each read is recorded, in the order
    /// they end, before this returns. Once this task is cancelled (the daemon stopping),
    /// the reads it cuts short are not recorded: they say nothing about the feeds, and a
    /// backoff kept for them would outlive the run.
    public func read(_ podcasts: [Podcast]) async {
        guard !podcasts.isEmpty else { return }
        let fetcher = self.fetcher
        await withTaskGroup(of: FeedFetch.self) { group in
            var running = 0
            for podcast in podcasts {
                if running == width, let fetch = await group.next() {
                    await record(fetch)
                    running -= 1
                }
                let conditional = !(dataSource?.readsInFull(podcast.id) ?? false)
                group.addTask { await fetcher.fetch(podcast, conditional: conditional) }
                running += 1
            }
            for await fetch in group { await record(fetch) }
        }
    }

    private func record(_ fetch: FeedFetch) async {
        guard !Task.isCancelled else { return }
        await delegate?.podcastService(self, didRead: fetch)
    }
}
