/// What a podcasts view watches: one podcast (by id), or (`nil`) all of them.
public struct PodcastsViewOptions: ViewOptions {
    /// The podcast's id.
    public var podcast: String?

    public init() {}

    public init(podcast: String?) {
        self.podcast = podcast
    }
}
