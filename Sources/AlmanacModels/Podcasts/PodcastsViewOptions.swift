/// What a podcasts view watches: one podcast (by id), or (`nil`) all of them.
public struct PodcastsViewOptions: ViewOptions, Codable {
    /// The podcast's id.
    public var podcast: String?

    /// A view of all podcasts.
    public init() {}

    /// A view of that one (`nil`: of all podcasts).
    public init(podcast: String?) {
        self.podcast = podcast
    }
}
