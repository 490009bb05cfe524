public import FoundationEssentials
import Synchronization

/// An offline podcast provider for `--provider demo` and tests: a small catalogue that gains
/// an episode now and then.
public final class DemoPodcastService: PodcastService, Sendable {
    public let links = ServiceLinks<any PodcastServiceDataSource, any PodcastServiceDelegate>()
    private let step = Atomic<Int>(0)
    /// A new episode appears every `newEpisodeEvery` refreshes.
    private let newEpisodeEvery: Int
    /// When the first episodes came out: ten days before the service started.
    private let start: Date

    public init(newEpisodeEvery: Int = 3, now: Date = Date()) {
        self.newEpisodeEvery = max(1, newEpisodeEvery)
        start = now.addingTimeInterval(-10 * 86_400)
    }

    /// The demo catalogue's podcasts, to subscribe to at start.
    public static let catalogue: [Podcast] = [
        Podcast(id: "demo-morning", title: "Almanac Morning", author: "The Almanac Team", feedURL: "demo:morning"),
        Podcast(id: "demo-garden", title: "Garden Weather", author: "R. Fern", feedURL: "demo:garden"),
        Podcast(id: "demo-swift", title: "Swift on Linux", author: "T. Server", feedURL: "demo:swift"),
    ]

    public func refresh(_ podcasts: [Podcast]? = nil) async {
        let podcasts = podcasts ?? dataSource?.podcastsToRefresh(for: self) ?? []
        // A refresh that reads nothing does not move the simulation on.
        guard !podcasts.isEmpty else { return }
        let n = step.add(1, ordering: .relaxed).newValue
        for podcast in podcasts {
            guard let delegate else { return }
            guard let index = Self.catalogue.firstIndex(where: { $0.id == podcast.id }) else {
                delegate.podcastService(self, didFailToFetch: podcast.id, error: DemoError("The demo provider has no feed '\(podcast.feedURL)'."))
                continue
            }
            delegate.podcastService(self, didFetch: Self.catalogue[index], episodes: episodes(of: index, step: n))
        }
    }

    /// Every episode podcast `index` lists at refresh `step`: three to begin with, and one more
    /// every `newEpisodeEvery` refreshes, for one podcast at a time in turn.
    func episodes(of index: Int, step: Int) -> [Episode] {
        let rounds = step / newEpisodeEvery
        let extra = rounds / Self.catalogue.count + (rounds % Self.catalogue.count > index ? 1 : 0)
        let podcast = Self.catalogue[index]
        return (1...(3 + extra)).map { number in
            Episode(id: "\(podcast.id)-\(number)", podcastID: podcast.id, title: "\(podcast.title) #\(number)",
                    published: start.addingTimeInterval(Double(number) * 86_400 + Double(index) * 3_600),
                    duration: Double(1_200 + (number * 137 + index * 311) % 2_400),
                    audioURL: "https://demo.almanac.invalid/\(podcast.id)/\(number).mp3")
        }
    }
}
