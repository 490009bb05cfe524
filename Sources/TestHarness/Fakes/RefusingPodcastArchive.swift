public import AlmanacCore
public import AlmanacModels
public import Locking
public import Synchronization
public import Foundation

/// An archive (the real store, in memory or in a file) told to refuse writes or reads when a
/// test asks (a fake of our own protocol): while `refusing` is set, every write throws
/// `StorageError`; a write named in `refusedWrites` (`"saveQueue"`) throws while the others
/// are taken, so a command can fail half-way; while `refusingReads` is set, every read throws.
/// Transactions and savepoints are the wrapped archive's: what a refused burst wrote before
/// the refusal is really rolled back.
public final class RefusingPodcastArchive: PodcastArchive, Sendable {
    /// The archive that keeps what is written while writes are taken.
    public let inner: any PodcastArchive
    /// While set, every write throws `StorageError("the disk is full")`.
    public let refusing = Atomic<Bool>(false)
    /// The writes (by name: `"saveQueue"`, `"saveOlderPages"`) that throw as `refusing` makes every write throw.
    public let refusedWrites = Locked<Set<String>>([])
    /// While set, every read throws `StorageError("… disk I/O error")`.
    public let refusingReads = Atomic<Bool>(false)

    /// Refuses what it is told to, and passes everything else to `inner`.
    public init(wrapping inner: any PodcastArchive) {
        self.inner = inner
    }

    public func transaction<T: Sendable>(_ body: () throws -> T) throws -> T { try inner.transaction(body) }

    public func savepoint<T: Sendable>(_ body: () throws -> T) throws -> T { try inner.savepoint(body) }

    public func podcastsState() throws -> PodcastsState { try readIfAllowed("the podcasts") { try inner.podcastsState() } }

    public func save(_ podcast: Podcast, newEpisodes episodes: [Episode]) throws {
        try refuseIfAsked()
        try inner.save(podcast, newEpisodes: episodes)
    }

    public func removePodcast(_ id: String) throws {
        try refuseIfAsked()
        try inner.removePodcast(id)
    }

    public func savePlayState(_ episode: Episode) throws {
        try refuseIfAsked()
        try inner.savePlayState(episode)
    }

    public func markAllPlayed(of podcastID: String?) throws -> Int {
        try refuseIfAsked()
        return try inner.markAllPlayed(of: podcastID)
    }

    public func playedAt(of episodeIDs: [String]) throws -> [String: Date] { try readIfAllowed("when episodes were played") { try inner.playedAt(of: episodeIDs) } }

    public func savePreferences(_ preferences: PodcastPreferences, of podcastID: String) throws {
        try refuseIfAsked()
        try inner.savePreferences(preferences, of: podcastID)
    }

    public func saveKept(_ kept: Bool, of episodeID: String) throws {
        try refuseIfAsked()
        try inner.saveKept(kept, of: episodeID)
    }

    public func saveFile(_ file: String?, of episodeID: String) throws {
        try refuseIfAsked()
        try inner.saveFile(file, of: episodeID)
    }

    public func episode(audioURL url: String?, file: String?) throws -> Episode? { try readIfAllowed("the episode of a file") { try inner.episode(audioURL: url, file: file) } }

    public func saveSettings(_ settings: PodcastSettings) throws {
        try refuseIfAsked()
        try inner.saveSettings(settings)
    }

    public func saveQueue(_ queue: [QueuedEpisode]) throws {
        try refuseIfAsked()
        try inner.saveQueue(queue)
    }

    public func episodeIDs(of podcastID: String) throws -> Set<String> { try readIfAllowed("the episodes of \(podcastID)") { try inner.episodeIDs(of: podcastID) } }

    public func episode(_ id: String) throws -> Episode? { try readIfAllowed("the episode \(id)") { try inner.episode(id) } }

    public func page(_ query: EpisodeQuery) throws -> EpisodePage { try readIfAllowed("a page of the library") { try inner.page(query) } }

    public func saveDetails(_ details: FeedDetails, of podcastID: String) throws {
        try refuseIfAsked()
        try inner.saveDetails(details, of: podcastID)
    }

    public func details(of episodeID: String) throws -> (episode: EpisodeDetails?, podcast: PodcastDetails?, chapters: FetchedChapters?) {
        try readIfAllowed("the details of \(episodeID)") { try inner.details(of: episodeID) }
    }

    public func saveChapters(_ chapters: FetchedChapters, of episodeID: String) throws {
        try refuseIfAsked()
        try inner.saveChapters(chapters, of: episodeID)
    }

    public func transcript(of episodeID: String) throws -> Transcript? {
        try readIfAllowed("the transcript of \(episodeID)") { try inner.transcript(of: episodeID) }
    }

    public func saveTranscript(_ transcript: Transcript, of episodeID: String) throws {
        try refuseIfAsked()
        try inner.saveTranscript(transcript, of: episodeID)
    }

    public func transcriptMoments(matching search: String, in episodeIDs: [String], perEpisode: Int) throws -> [TranscriptMoment] {
        try readIfAllowed("the transcripts") { try inner.transcriptMoments(matching: search, in: episodeIDs, perEpisode: perEpisode) }
    }

    public func addListening(_ seconds: Double, to episodeID: String, on day: String) throws {
        try refuseIfAsked()
        try inner.addListening(seconds, to: episodeID, on: day)
    }

    public func listening(since day: String) throws -> [ListeningTotal] {
        try readIfAllowed("the listening history") { try inner.listening(since: day) }
    }

    public func refusedTitlePatterns() throws -> [RefusedTitlePattern] {
        try readIfAllowed("the refused title patterns") { try inner.refusedTitlePatterns() }
    }

    public func forgetRefusedTitlePatterns(_ settings: Set<String>, of podcastID: String) throws {
        try refuseIfAsked()
        try inner.forgetRefusedTitlePatterns(settings, of: podcastID)
    }

    /// Throws when every write is refused, or this one (`write`: the calling method's name).
    private func refuseIfAsked(_ write: String = #function) throws {
        let name = String(write.prefix { $0 != "(" })
        if refusing.load(ordering: .relaxed) || refusedWrites.withLock({ $0.contains(name) }) { throw StorageError("the disk is full") }
    }

    private func readIfAllowed<T>(_ what: String, _ body: () throws -> T) throws -> T {
        if refusingReads.load(ordering: .relaxed) { throw StorageError("Could not read \(what): disk I/O error.") }
        return try body()
    }

    public func olderPages(of podcastID: String) throws -> OlderPages { try readIfAllowed("the older pages of \(podcastID)") { try inner.olderPages(of: podcastID) } }

    public func saveOlderPages(_ pages: OlderPages, of podcastID: String) throws {
        try refuseIfAsked()
        try inner.saveOlderPages(pages, of: podcastID)
    }

    public func backoffs() throws -> [String: FeedBackoff] { try readIfAllowed("the feeds' backoffs") { try inner.backoffs() } }

    public func saveBackoff(_ backoff: FeedBackoff?, of podcastID: String) throws {
        try refuseIfAsked()
        try inner.saveBackoff(backoff, of: podcastID)
    }
}
