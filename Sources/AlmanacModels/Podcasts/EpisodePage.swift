/// One page of an episode list, and what a view needs to show the rest.
public struct EpisodePage: Sendable, Hashable {
    public var episodes: [Episode]
    /// How many episodes the whole list holds.
    public var total: Int
    /// Where the next page starts; `nil` on the last page.
    public var nextCursor: String?

    public init(episodes: [Episode], total: Int, nextCursor: String?) {
        self.episodes = episodes
        self.total = total
        self.nextCursor = nextCursor
    }
}
