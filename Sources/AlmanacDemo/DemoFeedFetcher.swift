public import AlmanacCore
public import AlmanacModels
public import FoundationEssentials
import Locking

/// An offline podcast provider for `--provider demo` and tests: a small catalogue that gains
/// an episode now and then.
///
/// Each podcast starts with three episodes published in the days before the fetcher started
/// (at seeded times); then one podcast after another, in turn, gains an episode every
/// `newEpisodeEvery` refreshes, published when it appears — never in the future. A refresh
/// is a round of reads: a feed read again begins the next one. Given the episode ids a store
/// already holds, the simulation goes on from there (numbers and turn) rather than starting
/// again.
public final class DemoFeedFetcher: FeedFetching, Sendable {
    /// A new episode appears every `newEpisodeEvery` refreshes.
    private let newEpisodeEvery: Int
    private let clock: @Sendable () -> Date
    private let random: DemoRandom
    private let state: Locked<Simulation>

    /// Where the simulation is.
    private struct Simulation {
        /// Refreshes that read something.
        var refreshes = 0
        /// The feeds read in this refresh.
        var readThisRound: Set<String> = []
        /// Episodes added since the back catalogue, over all podcasts: whose turn is next.
        var added = 0
        /// Each podcast's highest episode number.
        var numbers: [Int] = []
        /// Each podcast's episodes, the newest last (what its feed lists: the newest few of
        /// those this service made).
        var episodes: [[Episode]] = []
    }

    /// The most episodes a demo feed lists, as a real feed lists its newest.
    static let feedLength = 10

    /// - Parameters:
    ///   - seed: the same seed, the same back catalogue; by default one from the clock.
    ///   - newEpisodeEvery: refreshes between new episodes.
    ///   - clock: when episodes appear.
    ///   - episodeIDs: the ids already kept (say, by the store of a daemon that ran before):
    ///     each catalogue podcast goes on from its highest number, and turns from their sum.
    public init(seed: UInt64 = DemoSeed.fromClock(SystemClock().now), newEpisodeEvery: Int = 3, clock: @escaping @Sendable () -> Date = SystemClock().reading,
                continuingFrom episodeIDs: some Sequence<String> = [String]()) {
        self.newEpisodeEvery = max(1, newEpisodeEvery)
        self.clock = clock
        random = DemoRandom(seed: seed)
        let highest = Self.highestNumbers(in: episodeIDs)
        let now = clock()
        var simulation = Simulation()
        for (index, podcast) in Self.catalogue.enumerated() {
            if let last = highest[index] {
                // Kept already: nothing to list again; new episodes follow the highest number.
                simulation.numbers.append(last)
                simulation.episodes.append([])
                simulation.added += max(0, last - 3)
            } else {
                simulation.numbers.append(3)
                simulation.episodes.append(Self.backCatalogue(podcast, index: index, random: random, before: now))
            }
        }
        state = Locked(simulation)
    }

    /// The demo catalogue's podcasts, to subscribe to at start.
    public static let catalogue: [Podcast] = [
        Podcast(id: "demo-morning", title: "Almanac Morning", author: "The Almanac Team", feedURL: "demo:morning"),
        Podcast(id: "demo-garden", title: "Garden Weather", author: "R. Fern", feedURL: "demo:garden"),
        Podcast(id: "demo-swift", title: "Swift on Linux", author: "T. Server", feedURL: "demo:swift"),
    ]

    /// The catalogue podcast's feed as the simulation has it now (`conditional` changes
    /// nothing: a demo feed is always read in full); a podcast not in the catalogue fails.
    public func fetch(_ podcast: Podcast, conditional: Bool = true) async -> FeedFetch {
        guard let index = Self.catalogue.firstIndex(where: { $0.id == podcast.id }) else {
            return .failed(podcastID: podcast.id, error: DemoError("The demo provider has no feed '\(podcast.feedURL)'."))
        }
        let now = clock()
        let listed = state.withLock { simulation in
            // A feed read again: the next refresh has begun, and the simulation moves on.
            if simulation.refreshes == 0 || !simulation.readThisRound.insert(podcast.id).inserted {
                simulation.readThisRound = [podcast.id]
                simulation.refreshes += 1
                if simulation.refreshes % newEpisodeEvery == 0 {
                    let turn = simulation.added % Self.catalogue.count
                    simulation.numbers[turn] += 1
                    simulation.episodes[turn].append(episode(of: turn, number: simulation.numbers[turn], published: now))
                    simulation.episodes[turn] = Array(simulation.episodes[turn].suffix(Self.feedLength))
                    simulation.added += 1
                }
            }
            return simulation.episodes[index]
        }
        let episodes = listed.filter { $0.published <= now }
        let details = FeedDetails(episodes: Dictionary(episodes.map { ($0.id, Self.details(of: $0)) }, uniquingKeysWith: { first, _ in first }))
        return .parsed(podcast: Self.catalogue[index], episodes: episodes, details: details)
    }

    /// Show notes with a link, a number and three chapters, the same for the same episode,
    /// so that `almanac episode show` has something to show offline.
    static func details(of episode: Episode) -> EpisodeDetails {
        let number = episode.id.split(separator: "-").last.flatMap { Int($0) }
        let page = "https://demo.almanac.invalid/\(episode.podcastID)/\(number ?? 0)"
        let opening = "\(episode.title): the week's weather, the season ahead and your questions. Notes on "
        let length = episode.duration ?? 1_800
        return EpisodeDetails(
            link: page,
            description: "<p>\(opening)<a href=\"\(page)\">the episode's page</a>.</p>",
            descriptionText: opening + "the episode's page.",
            descriptionLinks: [FeedLink(url: page, end: (opening + "the episode's page").utf8.count)],
            episodeType: "full", episode: number,
            chapters: [FeedChapter(start: 0, title: "Opening"), FeedChapter(start: (length / 3).rounded(), title: "The week's weather"),
                       FeedChapter(start: (length * 2 / 3).rounded(), title: "Your questions")]
        )
    }

    /// Episode `number` of catalogue podcast `index`.
    private func episode(of index: Int, number: Int, published: Date) -> Episode {
        Self.episode(Self.catalogue[index], index: index, number: number, published: published, random: random)
    }

    private static func episode(_ podcast: Podcast, index: Int, number: Int, published: Date, random: DemoRandom) -> Episode {
        Episode(id: "\(podcast.id)-\(number)", podcastID: podcast.id, title: "\(podcast.title) #\(number)", published: published,
                duration: (random.value(in: 1_200...3_600, UInt64(index), UInt64(number)) / 60).rounded() * 60,
                audioURL: "https://demo.almanac.invalid/\(podcast.id)/\(number).mp3")
    }

    /// Three episodes a few days apart, the newest at least two hours before `now`.
    private static func backCatalogue(_ podcast: Podcast, index: Int, random: DemoRandom, before now: Date) -> [Episode] {
        let every = random.value(in: 2...7, UInt64(index), 1000) * 86_400
        let newest = now.addingTimeInterval(-random.value(in: 2...40, UInt64(index), 1001) * 3600)
        return (1...3).map { number in
            episode(podcast, index: index, number: number, published: newest.addingTimeInterval(-Double(3 - number) * every), random: random)
        }
    }

    /// Each catalogue podcast's highest episode number among `ids`.
    private static func highestNumbers(in ids: some Sequence<String>) -> [Int: Int] {
        var highest: [Int: Int] = [:]
        for id in ids {
            guard let dash = id.lastIndex(of: "-"), let number = Int(id[id.index(after: dash)...]),
                  let index = catalogue.firstIndex(where: { $0.id == id[..<dash] }) else { continue }
            highest[index] = max(highest[index] ?? 0, number)
        }
        return highest
    }
}
