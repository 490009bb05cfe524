import AlmanacCore
import AlmanacModels
import AlmanacServices
import DBus
import Foundation
import Locking
import Synchronization

/// The daemon's SQLite store behind our own archive protocols, noting every call: its name,
/// whether it ran on the server connection's own thread (and, for the weather document's
/// calls, whether on that document's owner), and how many transactions were opened (a fake
/// of our own protocols around the real store).
final class ThreadRecordingArchive: PodcastArchive, WeatherArchive, DownloadArchive, Sendable {
    let store: StateStore
    /// The server's connection, once it exists: calls on its thread are noted apart.
    let connection = Locked<Connection?>(nil)
    /// Every call, by name, in order.
    let calls = Locked<[String]>([])
    /// The calls that ran on the connection's thread.
    let onConnectionThread = Locked<[String]>([])
    /// The weather document, once it exists: its calls are checked to run on its owner.
    let weather = Locked<WeatherDocument?>(nil)
    /// The weather document's calls (and transactions) that ran off its owner's queue.
    let offWeatherOwner = Locked<[String]>([])
    /// Transactions opened from outside one (each a commit of its own).
    let transactions = Atomic<Int>(0)
    /// Of `transactions`, those opened on the weather document's owner.
    let weatherTransactions = Atomic<Int>(0)
    /// How long each transaction takes at least, in milliseconds (a slow disk), while set.
    let slowTransactions = Atomic<Int>(0)

    init(_ store: StateStore) {
        self.store = store
    }

    private func noted<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        calls.withLock { $0.append(name) }
        if connection.withLock({ $0 })?.isOnConnectionThread == true { onConnectionThread.withLock { $0.append(name) } }
        return try body()
    }

    /// Notes a call of the weather document's own, and whether it ran off that document's owner.
    private func notedForWeather<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        if weather.withLock({ $0 })?.isOnOwner != true { offWeatherOwner.withLock { $0.append(name) } }
        return try noted(name, body)
    }

    // MARK: WeatherArchive

    func saveSettings(units: Units, savedLocations: [String], provider: WeatherProvider, rainNotify: RainNotice,
                      windUnit: WindUnit, precipitationUnit: PrecipitationUnit, weatherAlerts: AlertNotice) throws {
        try notedForWeather("saveSettings(weather)") {
            try store.saveSettings(units: units, savedLocations: savedLocations, provider: provider, rainNotify: rainNotify,
                                   windUnit: windUnit, precipitationUnit: precipitationUnit, weatherAlerts: weatherAlerts)
        }
    }

    func saveReading(_ reading: WeatherReading) throws { try notedForWeather("saveReading") { try store.saveReading(reading) } }
    func lastReading(at location: String) throws -> WeatherReading? { try notedForWeather("lastReading") { try store.lastReading(at: location) } }
    func saveAlerts(_ alerts: PlaceAlerts, at location: String) throws { try notedForWeather("saveAlerts") { try store.saveAlerts(alerts, at: location) } }
    func lastAlerts(at location: String) throws -> PlaceAlerts? { try notedForWeather("lastAlerts") { try store.lastAlerts(at: location) } }

    // MARK: Both

    func transaction<T: Sendable>(_ body: () throws -> T) throws -> T {
        try noted("transaction") {
            transactions.add(1, ordering: .relaxed)
            if weather.withLock({ $0 })?.isOnOwner == true { weatherTransactions.add(1, ordering: .relaxed) }
            let slow = slowTransactions.load(ordering: .relaxed)
            if slow > 0 { Thread.sleep(forTimeInterval: Double(slow) / 1000) }
            return try store.transaction(body)
        }
    }

    func savepoint<T: Sendable>(_ body: () throws -> T) throws -> T { try noted("savepoint") { try store.savepoint(body) } }

    // MARK: PodcastArchive

    func podcastsState() throws -> PodcastsState { try noted("podcastsState") { try store.podcastsState() } }
    func save(_ podcast: Podcast, newEpisodes episodes: [Episode]) throws { try noted("save") { try store.save(podcast, newEpisodes: episodes) } }
    func removePodcast(_ id: String) throws { try noted("removePodcast") { try store.removePodcast(id) } }
    func savePlayState(_ episode: Episode) throws { try noted("savePlayState") { try store.savePlayState(episode) } }
    func markAllPlayed(of podcastID: String?) throws -> Int { try noted("markAllPlayed") { try store.markAllPlayed(of: podcastID) } }
    func playedAt(of episodeIDs: [String]) throws -> [String: Date] { try noted("playedAt") { try store.playedAt(of: episodeIDs) } }
    func savePreferences(_ preferences: PodcastPreferences, of podcastID: String) throws {
        try noted("savePreferences") { try store.savePreferences(preferences, of: podcastID) }
    }
    func saveKept(_ kept: Bool, of episodeID: String) throws { try noted("saveKept") { try store.saveKept(kept, of: episodeID) } }
    func episodeIDs(of podcastID: String) throws -> Set<String> { try noted("episodeIDs") { try store.episodeIDs(of: podcastID) } }
    func episode(_ id: String) throws -> Episode? { try noted("episode") { try store.episode(id) } }
    func saveFile(_ file: String?, of episodeID: String) throws { try noted("saveFile") { try store.saveFile(file, of: episodeID) } }
    func episode(audioURL url: String?, file: String?) throws -> Episode? { try noted("episode(audioURL:)") { try store.episode(audioURL: url, file: file) } }
    func saveSettings(_ settings: PodcastSettings) throws { try noted("saveSettings(podcasts)") { try store.saveSettings(settings) } }
    func saveQueue(_ queue: [QueuedEpisode]) throws { try noted("saveQueue") { try store.saveQueue(queue) } }
    func page(_ query: EpisodeQuery) throws -> EpisodePage { try noted("page") { try store.page(query) } }
    func olderPages(of podcastID: String) throws -> OlderPages { try noted("olderPages") { try store.olderPages(of: podcastID) } }
    func saveOlderPages(_ pages: OlderPages, of podcastID: String) throws { try noted("saveOlderPages") { try store.saveOlderPages(pages, of: podcastID) } }
    func backoffs() throws -> [String: FeedBackoff] { try noted("backoffs") { try store.backoffs() } }
    func saveBackoff(_ backoff: FeedBackoff?, of podcastID: String) throws { try noted("saveBackoff") { try store.saveBackoff(backoff, of: podcastID) } }
    func saveDetails(_ details: FeedDetails, of podcastID: String) throws { try noted("saveDetails") { try store.saveDetails(details, of: podcastID) } }
    func details(of episodeID: String) throws -> (episode: EpisodeDetails?, podcast: PodcastDetails?, chapters: FetchedChapters?) {
        try noted("details") { try store.details(of: episodeID) }
    }
    func saveChapters(_ chapters: FetchedChapters, of episodeID: String) throws { try noted("saveChapters") { try store.saveChapters(chapters, of: episodeID) } }
    func transcript(of episodeID: String) throws -> Transcript? { try noted("transcript") { try store.transcript(of: episodeID) } }
    func saveTranscript(_ transcript: Transcript, of episodeID: String) throws { try noted("saveTranscript") { try store.saveTranscript(transcript, of: episodeID) } }
    func transcriptMoments(matching search: String, in episodeIDs: [String], perEpisode: Int) throws -> [TranscriptMoment] {
        try noted("transcriptMoments") { try store.transcriptMoments(matching: search, in: episodeIDs, perEpisode: perEpisode) }
    }

    func addListening(_ seconds: Double, to episodeID: String, on day: String) throws {
        try noted("addListening") { try store.addListening(seconds, to: episodeID, on: day) }
    }
    func listening(since day: String) throws -> [ListeningTotal] { try noted("listening") { try store.listening(since: day) } }
    func refusedTitlePatterns() throws -> [RefusedTitlePattern] { try noted("refusedTitlePatterns") { try store.refusedTitlePatterns() } }
    func forgetRefusedTitlePatterns(_ settings: Set<String>, of podcastID: String) throws {
        try noted("forgetRefusedTitlePatterns") { try store.forgetRefusedTitlePatterns(settings, of: podcastID) }
    }

    // MARK: DownloadArchive

    func downloadJobs() throws -> [DownloadJob] { try noted("downloadJobs") { try store.downloadJobs() } }
    func saveDownloadJob(_ job: DownloadJob) throws { try noted("saveDownloadJob") { try store.saveDownloadJob(job) } }
    func removeDownloadJob(_ id: UInt64) throws { try noted("removeDownloadJob") { try store.removeDownloadJob(id) } }
    func lastDownloadJobID() throws -> UInt64 { try noted("lastDownloadJobID") { try store.lastDownloadJobID() } }
}
