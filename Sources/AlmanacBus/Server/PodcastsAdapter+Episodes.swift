import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

extension PodcastsAdapter {
    /// Pages of episodes, one episode, the queue, listening totals, transcripts and downloads.
    func episodeMethods(connection strongConnection: Connection) -> [Method] {
        // Weak: the connection holds these handlers.
        weak let connection = strongConnection
        let podcasts = self.podcasts
        var methods: [Method] = [
            // Every method whose cost grows with its input or the library makes its answer in a
            // task of its own (ListEpisodes, ExportOPML, InspectData, …), off the connection's
            // thread; what it answers from is taken in order with the other calls.
            Method(BusContract.Podcasts1.listEpisodes, offloading: { _, arguments in
                let (given, values) = arguments
                var podcastID: String?
                if !given.isEmpty {
                    guard let podcast = podcasts.podcast(given) else {
                        throw PodcastsDocument.unknownPodcast(given, in: podcasts.document.snapshot.state)
                    }
                    podcastID = podcast.id
                }
                let query = try PodcastsCodec.query(podcastID: podcastID, values)
                // Read first: the page holds at least every change up to it.
                let revision = podcasts.document.revision
                return {
                    // A search on a search lane (PodcastsDocument+Search.swift), within its budget.
                    let page = try await podcasts.searchedPage(query)
                    return (try WireCoding.dictionaries(page.episodes), try WireCoding.fields(EpisodePageInfo(page, revision: revision)))
                }
            }, checkingLength: { call, _, length in
                try LargeAnswers.check(length, on: connection, "A page of up to \(try Self.pageLimit(call)) episodes", instead: "ask for fewer (a smaller `limit`)")
            }),
            // Every method that reads or writes the library does so off the connection's thread:
            // in a task, or on the document's owner (whose writes go into a burst).
            Method(BusContract.Podcasts1.getEpisode, async: { _, given in
                guard let episode = try podcasts.episode(given) else { throw BusError.invalidArgs("There is no episode '\(given.prefix(200))'.") }
                return try WireCoding.fields(EpisodeWithTitle(episode, podcastTitle: podcasts.document.snapshot.state.podcasts[episode.podcastID]?.title))
            }),
            // Async: the episode's chapters file may be fetched first (once; then it is kept).
            Method(BusContract.Podcasts1.getEpisodeDetails, async: { [chapters, transcripts] _, given in
                guard let record = try await podcasts.episodeRecord(given, chapters: chapters) else {
                    throw BusError.invalidArgs("There is no episode '\(given.prefix(200))'.")
                }
                // A shown episode's transcript is fetched (once, then kept) without holding up the answer.
                if let transcripts, record.details?.transcripts.isEmpty == false {
                    Task { _ = try? await podcasts.transcript(given, fetcher: transcripts) }
                }
                return try WireCoding.fields(record)
            }, checkingLength: { _, _, length in
                try LargeAnswers.check(length, on: connection, "The episode's record", instead: "its show notes are too long for this bus; GetEpisode gives the episode without them")
            }),
        ]
        methods += transcriptMethods(connection: strongConnection)
        methods += queueMethods()
        return methods
    }

    /// An episode's transcript, and a search through the transcripts of some episodes.
    private func transcriptMethods(connection strongConnection: Connection) -> [Method] {
        // Weak: the connection holds these handlers.
        weak let connection = strongConnection
        let podcasts = self.podcasts
        return [
            // Async: the transcript may be fetched first (once; then it is kept).
            Method(BusContract.Podcasts1.getTranscript, async: { [transcripts] _, given in
                switch try await podcasts.transcript(given, fetcher: transcripts) {
                case .unknownEpisode:
                    throw BusError.invalidArgs("There is no episode '\(given.prefix(200))'.")
                case .none(let why):
                    throw BusError(BusContract.noTranscript, why)
                case .found(let transcript):
                    if transcript.segments.isEmpty { throw BusError(BusContract.fetchFailed, transcript.note ?? "The transcript \(transcript.url) gave no words.") }
                    return try WireCoding.fields(transcript)
                }
            }, checkingLength: { _, transcript, length in
                try LargeAnswers.check(length, on: connection, "The episode's transcript", instead: "read it at \(transcript["url"]?.stringValue ?? "its address")")
            }),
            Method(BusContract.Podcasts1.searchTranscripts, async: { _, arguments in
                let (search, episodes) = arguments
                guard search.contains(where: { !$0.isWhitespace }), search.utf8.count <= 1_000 else {
                    throw BusError.invalidArgs("Search for 1 to 1000 bytes of text, such as a phrase said in an episode.")
                }
                // Each episode once: at most a page of them, the most a client shows at once.
                var seen = Set<String>()
                let asked = episodes.filter { seen.insert($0).inserted }
                guard asked.count <= EpisodeQuery.maximumLimit else {
                    throw BusError.invalidArgs("Ask for at most \(EpisodeQuery.maximumLimit) episodes at a time, not \(asked.count).")
                }
                _ = try SearchTerms(search)  // its bounds, before it waits for a lane
                let moments = try await podcasts.transcriptMoments(matching: search, in: asked, perEpisode: Self.momentsPerEpisode)
                return try WireCoding.dictionaries(moments)
            }),
        ]
    }

    /// The queue, listening totals and downloads.
    private func queueMethods() -> [Method] {
        let podcasts = self.podcasts
        return [
            Method(BusContract.Podcasts1.getQueue, async: { _, _ in
                let titles = podcasts.document.snapshot.state.podcasts.mapValues(\.title)
                return try WireCoding.dictionaries(try podcasts.queuedEpisodes().map { EpisodeWithTitle($0, podcastTitle: titles[$0.podcastID]) })
            }),
            // Each episode once, at most a page of them (as SearchTranscripts); unknown ones left out.
            Method(BusContract.Podcasts1.getEpisodes, async: { _, given in
                var seen = Set<String>()
                let asked = given.filter { seen.insert($0).inserted }
                guard asked.count <= EpisodeQuery.maximumLimit else {
                    throw BusError.invalidArgs("Ask for at most \(EpisodeQuery.maximumLimit) different episodes at a time, not \(asked.count).")
                }
                let titles = podcasts.document.snapshot.state.podcasts.mapValues(\.title)
                return try WireCoding.dictionaries(try asked.compactMap { try podcasts.episode($0) }.map { EpisodeWithTitle($0, podcastTitle: titles[$0.podcastID]) })
            }),
            Method(BusContract.Podcasts1.getListeningStats, async: { _, days in
                guard (1...UInt32(ListeningTotal.maximumDays)).contains(days) else {
                    throw BusError.invalidArgs("'days' is how many days of listening to sum, from 1 (today) to \(ListeningTotal.maximumDays); not \(days).")
                }
                return try WireCoding.dictionaries(try podcasts.listeningTotals(days: Int(days)))
            }),
            // In a task: the episode is looked up in the library.
            Method(BusContract.Podcasts1.download, async: { [downloads] call, episode in
                guard let downloads else { throw BusError(.notSupported, "This almanacd does not download.") }
                return BusContract.downloadPath(try downloads.download(episode, for: call.sender))
            }),
        ]
    }

    /// How many episodes a `ListEpisodes` call asks for at most: its `limit`, or the default.
    static func pageLimit(_ call: MethodCall) throws -> Int {
        let (_, values) = try call.arguments(of: BusContract.Podcasts1.listEpisodes)
        return try PodcastsCodec.query(podcastID: nil, values).limit
    }
}
