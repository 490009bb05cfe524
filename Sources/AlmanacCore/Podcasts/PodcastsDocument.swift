/// The podcasts document: subscriptions, episodes and play state, and the podcast service's
/// data source (which feeds) and delegate (what the feeds said).
public final class PodcastsDocument: PodcastServiceDataSource, PodcastServiceDelegate, Sendable {
    public typealias Model = Document<PodcastsState, PodcastsChange>

    /// The view option that names the podcast a view watches (absent: all of them).
    public static let podcastOption = "podcast"

    public let document: Model

    public init(_ state: PodcastsState = PodcastsState()) {
        document = Model(state)
    }

    public func podcastsToRefresh(for service: any PodcastService) -> [Podcast] {
        document.snapshot.state.podcasts.values.sorted { $0.id < $1.id }
    }

    /// Subscribes to a podcast (no change if subscribed already).
    @discardableResult
    public func subscribe(_ podcast: Podcast) -> UInt64? {
        document.update { state in
            guard state.podcasts[podcast.id] == nil else { return nil }
            state.podcasts[podcast.id] = podcast
            return .subscribed(podcast)
        }
    }

    public func podcastService(_ service: any PodcastService, didFetch podcast: Podcast, episodes: [Episode]) {
        document.update { state in
            if state.podcasts[podcast.id] == nil { return nil }  // unsubscribed meanwhile
            state.podcasts[podcast.id] = podcast
            let new = episodes.filter { state.episodes[$0.id] == nil }
            guard !new.isEmpty else { return nil }
            for episode in new { state.episodes[episode.id] = episode }
            return .newEpisodes(podcastID: podcast.id, new.sorted { $0.published > $1.published })
        }
    }

    public func podcastService(_ service: any PodcastService, didFailToFetch podcastID: String, error: any Error) {
        document.update { _ in .failed(podcastID: podcastID, message: String(describing: error)) }
    }

    /// Applies a play-state change a view submitted, after validating it.
    @discardableResult
    public func submit(_ submission: PlayStateSubmission, from view: ViewKey?) throws -> UInt64 {
        let apply: (inout PodcastsState) throws -> PodcastsChange? = { state in
            try submission.validate(against: state)
            var episode = state.episodes[submission.episodeID]!
            if let played = submission.played { episode.played = played }
            if let position = submission.position { episode.position = position }
            episode.isNew = false
            guard episode != state.episodes[submission.episodeID] else { return nil }
            state.episodes[submission.episodeID] = episode
            return .playState(episodeID: episode.id, played: episode.played, position: episode.position)
        }
        if let view { return try document.submit(from: view, apply) }
        return try document.update(apply) ?? document.revision
    }
}
