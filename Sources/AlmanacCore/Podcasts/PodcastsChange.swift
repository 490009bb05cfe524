/// One change to the podcasts document.
public enum PodcastsChange: Sendable, Hashable {
    case subscribed(Podcast)
    case newEpisodes(podcastID: String, [Episode])
    case playState(episodeID: String, played: Bool, position: Double)
    case failed(podcastID: String, message: String)

    /// The podcast this change concerns, when it concerns one.
    public var podcastID: String? {
        switch self {
        case .subscribed(let podcast): podcast.id
        case .newEpisodes(let id, _), .failed(let id, _): id
        case .playState: nil
        }
    }
}
