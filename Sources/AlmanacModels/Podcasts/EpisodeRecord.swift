/// One episode's full record, as `Podcasts1.GetEpisodeDetails` answers and `almanac episode
/// show` shows it: the episode with its play state, its podcast, the details its feed gave,
/// and the chapters to show.
public struct EpisodeRecord: Sendable, Hashable {
    /// Where the chapters shown come from.
    public enum ChaptersSource: String, Sendable, Hashable, Codable {
        /// Podlove Simple Chapters in the feed.
        case feed
        /// The `<podcast:chapters>` JSON file.
        case json
    }

    public var episode: Episode
    public var podcastTitle: String?
    public var podcast: PodcastDetails
    /// `nil` when the episode's feed has not been read since the library began keeping
    /// details (it was kept by an older Almanac): read again, it has them.
    public var details: EpisodeDetails?
    /// In order of start: the JSON file's when it gave some, else the feed's own.
    public var chapters: [FeedChapter]
    public var chaptersSource: ChaptersSource?
    /// Why the chapters are not all there ("The chapters file … is not chapters JSON: …").
    public var chaptersNote: String?

    public init(episode: Episode, podcastTitle: String? = nil, podcast: PodcastDetails = PodcastDetails(), details: EpisodeDetails? = nil,
                chapters: [FeedChapter] = [], chaptersSource: ChaptersSource? = nil, chaptersNote: String? = nil) {
        self.episode = episode
        self.podcastTitle = podcastTitle
        self.podcast = podcast
        self.details = details
        self.chapters = chapters
        self.chaptersSource = chaptersSource
        self.chaptersNote = chaptersNote
    }
}
