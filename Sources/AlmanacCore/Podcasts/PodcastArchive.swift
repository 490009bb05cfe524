public import FoundationEssentials
public import AlmanacModels

/// Where the podcasts document keeps subscriptions, episodes and play state: the library
/// itself, which the document's state only windows. Every write is on disk (for the
/// daemon's SQLite archive) before it returns; a write that fails throws `StorageError` and
/// the document changes nothing. A read that fails throws `StorageError` too, never an empty
/// answer: no episode is taken for new, and nothing is deleted, for a disk that did not answer.
public protocol PodcastArchive: Sendable {
    /// The podcasts, the newest `PodcastsState.window` episodes, the count of all, the
    /// settings and each podcast's own.
    func podcastsState() throws -> PodcastsState
    /// Adds or updates a podcast and adds `episodes` it does not have yet, in one transaction.
    func save(_ podcast: Podcast, newEpisodes episodes: [Episode]) throws
    /// Removes a podcast and its episodes.
    func removePodcast(_ id: String) throws
    /// Records an episode's play state, and when it was first marked played (`playedAt`;
    /// forgotten when it is marked unplayed), in one transaction.
    func savePlayState(_ episode: Episode) throws
    /// Marks every unplayed episode (of `podcastID`, or of all when `nil`) played and not
    /// new, noting when (`playedAt`), in one transaction; how many it marked.
    func markAllPlayed(of podcastID: String?) throws -> Int
    /// When each of these episodes was marked played, for those that are (`savePlayState`,
    /// `markAllPlayed`): what a cleanup counts `deletePlayedAfter` from.
    func playedAt(of episodeIDs: [String]) throws -> [String: Date]
    /// Keeps a podcast's own settings (the defaults: none kept). They go with the podcast.
    func savePreferences(_ preferences: PodcastPreferences, of podcastID: String) throws
    /// Records that the user kept an episode's download out of every cleanup (`Episode.kept`), or let it go.
    func saveKept(_ kept: Bool, of episodeID: String) throws
    /// The ids of every episode a podcast has (to tell the new ones in a feed).
    func episodeIDs(of podcastID: String) throws -> Set<String>
    /// One episode, wherever it is in the library.
    func episode(_ id: String) throws -> Episode?
    /// Records where an episode's audio was downloaded to (`nil`: its file is gone). A file
    /// belongs to one episode: any other that named the same path no longer does.
    func saveFile(_ file: String?, of episodeID: String) throws
    /// The episode whose audio is at `url` (its enclosure URL) or whose downloaded file is `file`.
    func episode(audioURL url: String?, file: String?) throws -> Episode?
    /// Keeps the podcast settings.
    func saveSettings(_ settings: PodcastSettings) throws
    /// Keeps the Up Next queue, head first, in place of the one kept before
    /// (`podcastsState()` gives it back, without the episodes no longer in the library).
    func saveQueue(_ queue: [QueuedEpisode]) throws
    /// A page of the library, searched when the query says (titles, notes and kept transcripts);
    /// `SubmissionError` for a cursor no page handed out.
    func page(_ query: EpisodeQuery) throws -> EpisodePage
    /// What is known of a podcast's older feed pages (`.none` for an unknown podcast).
    func olderPages(of podcastID: String) throws -> OlderPages
    /// Records what is known of a podcast's older feed pages.
    func saveOlderPages(_ pages: OlderPages, of podcastID: String) throws
    /// The feeds backing off after failures, by podcast.
    func backoffs() throws -> [String: FeedBackoff]
    /// Records a feed's backoff (`nil`: it was read again, and has none).
    func saveBackoff(_ backoff: FeedBackoff?, of podcastID: String) throws
    /// Keeps what a read of a podcast's feed said beyond its episodes: the podcast's details,
    /// and the details of each of its episodes the library holds (others are skipped).
    func saveDetails(_ details: FeedDetails, of podcastID: String) throws
    /// What is kept of an episode beyond `Episode`: its details (`nil` until its feed is read
    /// by an Almanac that keeps them), its podcast's, and the chapters fetched for it.
    func details(of episodeID: String) throws -> (episode: EpisodeDetails?, podcast: PodcastDetails?, chapters: FetchedChapters?)
    /// Keeps the chapters fetched from an episode's chapters file.
    func saveChapters(_ chapters: FetchedChapters, of episodeID: String) throws
    /// The transcript kept for an episode (`saveTranscript`), `nil` when none is.
    func transcript(of episodeID: String) throws -> Transcript?
    /// Keeps an episode's transcript in place of the one kept before; it goes with the episode.
    func saveTranscript(_ transcript: Transcript, of episodeID: String) throws
    /// Where `search` is said in the kept transcripts of `episodeIDs`: at most `perEpisode`
    /// segments each, in order of time. A search as `page(_:)` reads it.
    func transcriptMoments(matching search: String, in episodeIDs: [String], perEpisode: Int) throws -> [TranscriptMoment]
    /// Runs `body` as one transaction: the calling thread's calls inside it are kept together
    /// when it returns, none of them when it throws (the document owner's burst).
    func transaction<T: Sendable>(_ body: () throws -> T) throws -> T
    /// Within `transaction`: what `body` wrote is undone alone when it throws, and the
    /// transaction goes on (one refused command does not spoil its burst).
    func savepoint<T: Sendable>(_ body: () throws -> T) throws -> T
    /// Adds `seconds` listened to an episode on the local `day` ("2026-11-28").
    func addListening(_ seconds: Double, to episodeID: String, on day: String) throws
    /// How long each podcast was listened to on each day from `day` on (by day, then podcast).
    func listening(since day: String) throws -> [ListeningTotal]
    /// The kept title patterns `TitlePattern` does not take (`podcastsState()` leaves them
    /// out of each podcast's settings), by podcast, `include` before `exclude`.
    func refusedTitlePatterns() throws -> [RefusedTitlePattern]
    /// Lets go of the refused kept patterns of `podcastID` among `settings` (`include`,
    /// `exclude`); `savePreferences` keeps them otherwise.
    func forgetRefusedTitlePatterns(_ settings: Set<String>, of podcastID: String) throws
}

extension PodcastArchive {
    /// An archive without transactions runs `body` as it is.
    public func transaction<T: Sendable>(_ body: () throws -> T) throws -> T { try body() }
    /// An archive without transactions runs `body` as it is.
    public func savepoint<T: Sendable>(_ body: () throws -> T) throws -> T { try body() }
    /// An archive that keeps only patterns it was given through `savePreferences` has none.
    public func refusedTitlePatterns() throws -> [RefusedTitlePattern] { [] }
    /// An archive without refused patterns has none to forget.
    public func forgetRefusedTitlePatterns(_ settings: Set<String>, of podcastID: String) throws {}
}
