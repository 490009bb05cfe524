public import Logging
import AlmanacModels

/// Fetches an episode's transcript ahead of its being asked for, when the episode joins
/// the Up Next queue or is downloaded: an in-process view of the podcasts document that
/// hears those changes and fetches one transcript at a time (through
/// `PodcastsDocument.transcript`, so each file is fetched once and kept). `episode show`
/// fetches the shown episode's itself (`Podcasts1.GetEpisodeDetails`).
public final class TranscriptPrefetcher: Service {
    private let podcasts: PodcastsDocument
    private let fetcher: any TranscriptFetching
    private let logger: Logger
    private let wanted: AsyncStream<String>
    private let asked: AsyncStream<String>.Continuation
    private static let viewKey = ViewKey("almanacd:transcripts")

    public init(podcasts: PodcastsDocument, fetcher: any TranscriptFetching, logger: Logger) {
        self.podcasts = podcasts
        self.fetcher = fetcher
        self.logger = logger
        (wanted, asked) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1_000))
    }

    /// The episodes a change wants a transcript of: those it queues or gives a file.
    static func episodes(wantedBy change: PodcastsChange) -> [String] {
        if case .queue(let queue) = change { return queue.map(\.episodeID) }
        if case .downloaded(let id, _, let file?) = change, !file.isEmpty { return [id] }
        return []
    }

    /// Follows the changes before any client can make one.
    public func prepare() async {
        podcasts.document.addView(key: Self.viewKey) { [asked] event in
            // Only queues a name: a view's handler must not block.
            guard case .changed(_, let change, _) = event else { return }
            for id in Self.episodes(wantedBy: change) { asked.yield(id) }
        }
    }

    /// Fetches what is asked for, one at a time, until cancelled.
    public func run() async {
        var done: Set<String> = []
        for await id in wanted {
            if Task.isCancelled { break }
            // A queue is announced whole on each edit: each of its episodes is looked at once.
            guard done.insert(id).inserted else { continue }
            do {
                if case .found(let transcript) = try await podcasts.transcript(id, fetcher: fetcher), let note = transcript.note {
                    logger.info("an episode's transcript could not be read", metadata: ["episode": "\(id)", "why": "\(note)"])
                }
            } catch {
                logger.error("could not look up an episode's transcript", metadata: ["episode": "\(id)", "error": "\(error)"])
            }
        }
        podcasts.document.removeView(key: Self.viewKey)
    }
}
