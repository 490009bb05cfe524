import Locking
import Synchronization
public import FoundationEssentials
public import AlmanacModels

/// A `PodcastArchive` in memory: what the document uses when it is given none (tests, and
/// anything that need not outlive the process).
public final class MemoryPodcastArchive: PodcastArchive, Sendable {
    private let library = Locked(PodcastsState())
    private let older = Locked<[String: OlderPages]>([:])
    private let backoff = Locked<[String: FeedBackoff]>([:])
    private let kept = Locked(Kept())
    /// When each played episode was marked played.
    private let played = Locked<[String: Date]>([:])
    /// Seconds listened, by day and episode.
    private let listened = Locked<[String: [String: Double]]>([:])
    private let clock: @Sendable () -> Date

    /// Details, by episode and podcast id, and fetched chapters.
    private struct Kept {
        var episodes: [String: EpisodeDetails] = [:]
        var podcasts: [String: PodcastDetails] = [:]
        var chapters: [String: FetchedChapters] = [:]
        var transcripts: [String: Transcript] = [:]
    }

    /// - Parameter clock: the time an episode marked played is noted with (`playedAt`).
    public init(clock: @escaping @Sendable () -> Date = SystemClock().reading) {
        self.clock = clock
    }

    public func podcastsState() -> PodcastsState {
        var state = library.withLock { $0 }
        state.episodeCount = state.episodes.count
        state.queue.removeAll { state.episodes[$0.episodeID] == nil }
        state.trimToWindow()
        return state
    }

    public func save(_ podcast: Podcast, newEpisodes episodes: [Episode]) throws {
        library.withLock { library in
            library.podcasts[podcast.id] = podcast
            for episode in episodes where library.episodes[episode.id] == nil { library.episodes[episode.id] = episode }
        }
    }

    public func removePodcast(_ id: String) throws {
        let gone = library.withLock { library in
            library.podcasts[id] = nil
            library.preferences[id] = nil
            older.withLock { $0[id] = nil }
            let gone = library.episodes.values.filter { $0.podcastID == id }.map(\.id)
            library.episodes = library.episodes.filter { $0.value.podcastID != id }
            return gone
        }
        played.withLock { played in for episode in gone { played[episode] = nil } }
        kept.withLock { kept in
            kept.podcasts[id] = nil
            for episode in gone {
                kept.episodes[episode] = nil
                kept.chapters[episode] = nil
                kept.transcripts[episode] = nil
            }
        }
    }

    public func savePlayState(_ episode: Episode) throws {
        let now = clock()
        library.withLock { library in
            guard var kept = library.episodes[episode.id] else { return }
            (kept.isNew, kept.played, kept.position) = (episode.isNew, episode.played, episode.position)
            library.episodes[episode.id] = kept
            played.withLock { played in
                if !episode.played {
                    played[episode.id] = nil
                } else if played[episode.id] == nil {
                    played[episode.id] = now
                }
            }
        }
    }

    public func markAllPlayed(of podcastID: String?) throws -> Int {
        let now = clock()
        return library.withLock { library in
            var count = 0
            for (id, episode) in library.episodes where (podcastID == nil || episode.podcastID == podcastID) && (!episode.played || episode.isNew) {
                library.episodes[id]?.played = true
                library.episodes[id]?.isNew = false
                played.withLock { played in if played[id] == nil { played[id] = now } }
                count += 1
            }
            return count
        }
    }

    public func playedAt(of episodeIDs: [String]) -> [String: Date] {
        played.withLock { played in played.filter { episodeIDs.contains($0.key) } }
    }

    public func savePreferences(_ preferences: PodcastPreferences, of podcastID: String) throws {
        library.withLock { library in
            guard library.podcasts[podcastID] != nil else { return }
            library.preferences[podcastID] = preferences.isDefault ? nil : preferences
        }
    }

    public func saveKept(_ kept: Bool, of episodeID: String) throws {
        library.withLock { $0.episodes[episodeID]?.kept = kept }
    }

    public func saveFile(_ file: String?, of episodeID: String) throws {
        library.withLock { library in
            if let file {
                for (id, other) in library.episodes where id != episodeID && other.file == file { library.episodes[id]?.file = nil }
            }
            library.episodes[episodeID]?.file = file
        }
    }

    public func episode(audioURL url: String?, file: String?) -> Episode? {
        library.withLock { library in
            library.episodes.values.first { (url != nil && $0.audioURL == url) || (file != nil && $0.file == file) }
        }
    }

    public func saveSettings(_ settings: PodcastSettings) throws {
        library.withLock { $0.settings = settings }
    }

    public func saveQueue(_ queue: [QueuedEpisode]) throws {
        library.withLock { $0.queue = queue }
    }

    public func episodeIDs(of podcastID: String) -> Set<String> {
        library.withLock { Set($0.episodes.values.lazy.filter { $0.podcastID == podcastID }.map(\.id)) }
    }

    public func episode(_ id: String) -> Episode? {
        library.withLock { $0.episodes[id] }
    }

    /// Searches as plain words (every one in the title, the notes or the transcript, ignoring case), not FTS5.
    public func page(_ query: EpisodeQuery) throws -> EpisodePage {
        var library = library.withLock { $0 }
        if let search = query.search {
            let words = Self.words(search)
            let notes = kept.withLock { $0.episodes.mapValues(\.descriptionText) }
            let spoken = kept.withLock { $0.transcripts.mapValues { $0.segments.map(\.text).joined(separator: "\n") } }
            library.episodes = library.episodes.filter { id, episode in
                let text = (episode.title + "\n" + (notes[id] ?? "") + "\n" + (spoken[id] ?? "")).lowercased()
                return words.allSatisfy(text.contains)
            }
        }
        return try library.page(query)
    }

    /// The lowercased words of a search, without FTS5's punctuation.
    private static func words(_ search: String) -> [String] {
        search.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    public func saveDetails(_ details: FeedDetails, of podcastID: String) throws {
        let known = library.withLock { library in Set(details.episodes.keys.filter { library.episodes[$0]?.podcastID == podcastID }) }
        kept.withLock { kept in
            kept.podcasts[podcastID] = details.podcast
            for (id, episode) in details.episodes where known.contains(id) { kept.episodes[id] = episode }
        }
    }

    public func details(of episodeID: String) -> (episode: EpisodeDetails?, podcast: PodcastDetails?, chapters: FetchedChapters?) {
        let podcastID = library.withLock { $0.episodes[episodeID]?.podcastID }
        return kept.withLock { kept in (kept.episodes[episodeID], podcastID.flatMap { kept.podcasts[$0] }, kept.chapters[episodeID]) }
    }

    public func saveChapters(_ chapters: FetchedChapters, of episodeID: String) throws {
        guard library.withLock({ $0.episodes[episodeID] }) != nil else { return }
        kept.withLock { $0.chapters[episodeID] = chapters }
    }

    public func transcript(of episodeID: String) -> Transcript? {
        kept.withLock { $0.transcripts[episodeID] }
    }

    public func saveTranscript(_ transcript: Transcript, of episodeID: String) throws {
        guard library.withLock({ $0.episodes[episodeID] }) != nil else { return }
        kept.withLock { $0.transcripts[episodeID] = transcript }
    }

    /// Every word of the search in one segment, ignoring case.
    public func transcriptMoments(matching search: String, in episodeIDs: [String], perEpisode: Int) -> [TranscriptMoment] {
        let words = Self.words(search)
        guard !words.isEmpty else { return [] }
        return kept.withLock { kept in
            episodeIDs.flatMap { id in
                (kept.transcripts[id]?.segments ?? []).filter { segment in
                    let text = segment.text.lowercased()
                    return words.allSatisfy(text.contains)
                }.prefix(perEpisode).map { TranscriptMoment(episodeID: id, start: $0.start, text: $0.text) }
            }
        }
    }

    public func olderPages(of podcastID: String) -> OlderPages {
        older.withLock { $0[podcastID] ?? .none }
    }

    public func saveOlderPages(_ pages: OlderPages, of podcastID: String) throws {
        let known = library.withLock { $0.podcasts[podcastID] != nil }
        guard known else { return }
        older.withLock { $0[podcastID] = pages }
    }

    public func backoffs() -> [String: FeedBackoff] { backoff.withLock { $0 } }

    public func saveBackoff(_ value: FeedBackoff?, of podcastID: String) throws {
        backoff.withLock { $0[podcastID] = value }
    }

    public func addListening(_ seconds: Double, to episodeID: String, on day: String) throws {
        guard library.withLock({ $0.episodes[episodeID] != nil }) else { return }
        listened.withLock { $0[day, default: [:]][episodeID, default: 0] += seconds }
    }

    public func listening(since day: String) throws -> [ListeningTotal] {
        let library = library.withLock { $0 }
        var totals: [String: ListeningTotal] = [:]
        for (date, episodes) in listened.withLock({ $0 }) where date >= day {
            for (episodeID, seconds) in episodes {
                guard let podcastID = library.episodes[episodeID]?.podcastID else { continue }
                totals["\(date) \(podcastID)", default: ListeningTotal(day: date, podcastID: podcastID, podcastTitle: library.podcasts[podcastID]?.title ?? "", seconds: 0)].seconds += seconds
            }
        }
        return totals.values.sorted { ($0.day, $0.podcastID) < ($1.day, $1.podcastID) }
    }
}
