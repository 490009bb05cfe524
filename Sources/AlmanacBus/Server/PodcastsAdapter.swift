public import AlmanacCore
public import AlmanacModels
public import AlmanacWire
public import DBus
import Synchronization

/// Serves the podcasts document on the bus.
public struct PodcastsAdapter: DocumentAdapter {
    public let podcasts: PodcastsDocument
    /// The refresh loop: `Refresh()`, `RefreshPodcast` and a new view's refresh read through it.
    public let service: PodcastService
    /// Reads a feed's older pages for a list that goes past the library (none: lists end there).
    public let olderPages: (any OlderEpisodesFetching)?
    /// Reads feeds for `Inspect`/`InspectData`/`Subscribe`.
    public let inspector: any FeedInspecting
    /// Reads and writes OPML for `ImportOPML`/`ExportOPML`.
    public let opml: any OPMLConverting
    /// Downloads episodes for `Download` and shows the jobs (none: `Download` answers `NotSupported`).
    public let downloads: DownloadsExport?
    /// Finds podcasts for `Search` (none: `Search` answers `NotSupported`).
    public let search: (any PodcastSearching)?
    /// Fetches chapters files for `GetEpisodeDetails` (none: they are not fetched, and the record says so).
    public let chapters: (any ChaptersFetching)?
    /// Fetches transcripts for `GetTranscript`, and the shown episode's for `GetEpisodeDetails` (none: they are not fetched).
    public let transcripts: (any TranscriptFetching)?

    public init(podcasts: PodcastsDocument, service: PodcastService, olderPages: (any OlderEpisodesFetching)? = nil, inspector: any FeedInspecting, opml: any OPMLConverting,
                downloads: DownloadsExport? = nil, search: (any PodcastSearching)? = nil, chapters: (any ChaptersFetching)? = nil,
                transcripts: (any TranscriptFetching)? = nil) {
        self.podcasts = podcasts
        self.service = service
        self.olderPages = olderPages
        self.inspector = inspector
        self.opml = opml
        self.downloads = downloads
        self.search = search
        self.chapters = chapters
        self.transcripts = transcripts
    }

    /// The most results one `Search` gives.
    static let maximumSearchResults = 200
    /// The most moments `SearchTranscripts` gives of one episode.
    static let momentsPerEpisode = 3

    public var name: DocumentName { .podcasts }
    public var document: PodcastsDocument.Model { podcasts.document }
    public var activity: DocumentActivity { podcasts.activity }
    public func viewOptions(_ values: [String: Value]) throws -> PodcastsViewOptions { try PodcastsCodec.viewOptions(values) }

    public func encode(state: PodcastsState) -> [String: Value] { PodcastsCodec.encode(state) }
    public func encode(change: PodcastsChange) -> [String: Value] { PodcastsCodec.encode(change) }

    public func snapshot(_ state: PodcastsState, for options: PodcastsViewOptions) -> [String: Value] {
        PodcastsCodec.snapshot(state, forPodcast: options.podcast)
    }

    public func slice(_ change: PodcastsChange, for options: PodcastsViewOptions) -> [String: Value]? {
        PodcastsCodec.slice(change, forPodcast: options.podcast)
    }

    public func failure(in change: PodcastsChange) -> String? { change.failure }

    /// Sends the submission to the document's owner: the answer comes once the burst that
    /// holds it is saved and published.
    public func submit(_ values: [String: Value], from view: ViewKey?, answer: @escaping @Sendable (Result<UInt64, any Error>) -> Void) throws {
        let submission = try PodcastsCodec.submission(values)
        podcasts.send(submission, from: view) { answer(Refusals.translated($0)) }
    }

    public func afterOwner(_ work: @escaping @Sendable () -> Void) {
        podcasts.onOwner(work)
    }

    public func claim(_ request: RefreshRequest<PodcastsViewOptions>) -> [Podcast]? {
        let due = podcasts.claim(request)
        return due.isEmpty ? nil : due
    }

    public func perform(_ work: [Podcast]) async {
        await service.read(work)
    }

    public func viewsChanged() {}

    /// A podcasts view pages through its podcast's episodes (or everyone's), newest first.
    public func pageSource(for options: PodcastsViewOptions) -> (any PagingDataSource<Value>)? {
        EpisodeListSource(podcasts: podcasts, podcastID: options.podcast, olderPages: olderPages)
    }

    public func domainProperties(changedBy change: PodcastsChange) -> (InterfaceName, [String: Value])? {
        switch change {
        case .subscribed, .unsubscribed, .renamed, .podcastSettings:
            return (BusContract.podcastsInterface, [BusContract.Podcasts1.subscriptions.rawValue: Self.subscriptions(podcasts.document.snapshot.state)])
        case .settings(let settings):
            return (BusContract.podcastsInterface, [BusContract.Podcasts1.settings.rawValue: PodcastsCodec.encode(settings)])
        default:
            return nil
        }
    }

    /// Subscribes to the feed at `url` after reading it; the podcast's id (the same one again
    /// for a feed already subscribed, and then `isNew` is false).
    static func subscribe(_ url: String, podcasts: PodcastsDocument, inspector: any FeedInspecting) async throws -> (id: String, isNew: Bool) {
        let url = url.trimmed
        if let known = podcasts.podcast(url) { return (known.id, false) }
        let (feedURL, feed): (String, ParsedFeed)
        do {
            (feedURL, feed) = try await inspector.locate(url: url)
        } catch {
            throw inspectError(error)
        }
        // A web page that announces a feed already subscribed.
        if let known = podcasts.podcast(feedURL) { return (known.id, false) }
        let podcast = FeedMapping.podcast(from: feed, feedURL: feedURL)
        // Two calls for one new feed at once: the second finds it subscribed and changes nothing.
        let (episodes, details, olderPagesURL) = (FeedMapping.episodes(from: feed, podcastID: podcast.id),
                                                  FeedMapping.details(from: feed, podcastID: podcast.id), FeedMapping.olderPagesURL(of: feed))
        let revision = try await podcasts.withOwner {
            try Refusals.translated { try podcasts.subscribe(podcast, episodes: episodes, details: details, olderPagesURL: olderPagesURL) }
        }
        return (podcast.id, revision != nil)
    }

    /// Feeds of an OPML import under way at once; the inspector bounds the reads themselves
    /// (sixteen at a time, two from one server).
    static let subscriptionsAtOnce = 32

    /// Subscribes to every outline of an OPML file, `subscriptionsAtOnce` feeds at a time; an
    /// outline's title becomes a newly subscribed podcast's (so an export lists what was
    /// imported; a title the user already gave a podcast stays). Returns the feed URLs
    /// subscribed and, for the others, why not.
    static func subscribeAll(_ outlines: [(title: String, feedURL: String)], podcasts: PodcastsDocument,
                             inspector: any FeedInspecting) async -> (subscribed: [String], failed: [String: String]) {
        var subscribed: [String] = []
        var failed: [String: String] = [:]
        await withTaskGroup(of: (String, String?).self) { group in
            for (index, outline) in outlines.enumerated() {
                if index >= Self.subscriptionsAtOnce, let (url, failure) = await group.next() {
                    if let failure { failed[url] = failure } else { subscribed.append(url) }
                }
                group.addTask {
                    do {
                        let (id, isNew) = try await subscribe(outline.feedURL, podcasts: podcasts, inspector: inspector)
                        if isNew, outline.title != outline.feedURL {
                            // The file's title becomes the podcast's: one line, no control characters.
                            var title = outline.title.printableLine(maximumLength: 1_000).trimmed
                            while title.utf8.count > 200 { title.removeLast() }
                            do {
                                _ = try await podcasts.withOwner { [title] in try podcasts.rename(id, to: title) }
                            } catch {
                                return (outline.feedURL, "subscribed, but its title could not be set: \(error)")
                            }
                        }
                        return (outline.feedURL, nil)
                    } catch let error as BusError {
                        return (outline.feedURL, error.message)
                    } catch {
                        return (outline.feedURL, "\(error)")
                    }
                }
            }
            for await (url, failure) in group {
                if let failure { failed[url] = failure } else { subscribed.append(url) }
            }
        }
        let order = Dictionary(outlines.enumerated().map { ($1.feedURL, $0) }, uniquingKeysWith: { first, _ in first })
        return (subscribed.sorted { order[$0, default: 0] < order[$1, default: 0] }, failed)
    }

    /// A feed that could not be read, as a bus error: `NotAFeed` when what was read is not a
    /// feed, `FetchFailed` when it could not be read at all.
    static func inspectError(_ error: any Error) -> BusError {
        switch error {
        case let error as BusError: error
        case FeedInspectionError.notAFeed(let message): BusError(BusContract.notAFeed, message)
        default: BusError(BusContract.fetchFailed, "\(error)")
        }
    }

    static func subscriptions(_ state: PodcastsState) -> Value {
        .array(.dictionary(key: .string, value: .variant), state.podcasts.values.sorted { $0.id < $1.id }.map { PodcastsCodec.encode($0, preferences: state.preferences(of: $0.id)) })
    }

    /// The most bytes `InspectData` takes (D-Bus itself allows 128 MiB messages).
    static let maximumInspectBytes = 32 * 1024 * 1024

    /// Reads and parses the feed at `url` for `Inspect`/`InspectDescriptor`.
    static func inspect(url: String, inspector: any FeedInspecting) async throws -> ParsedFeed {
        do {
            return try await inspector.inspect(url: url)
        } catch {
            throw Self.inspectError(error)
        }
    }

    /// Subscribes to every feed OPML `data` lists, for `ImportOPML`/`ImportOPMLFile`.
    static func importOPML(_ data: [UInt8], opml: any OPMLConverting, podcasts: PodcastsDocument,
                           inspector: any FeedInspecting) async throws -> (subscribed: [String], failed: [String: String]) {
        let outlines: [(title: String, feedURL: String)]
        do {
            outlines = try opml.subscriptions(fromOPML: data)
        } catch {
            throw Self.inspectError(error)
        }
        let results = await Self.subscribeAll(outlines, podcasts: podcasts, inspector: inspector)
        // The answer names the feeds as every other place does: without their passwords.
        return (results.subscribed.map(FeedCredentials.redacted),
                Dictionary(results.failed.map { (FeedCredentials.redacted($0.key), $0.value) }, uniquingKeysWith: { first, _ in first }))
    }

    /// The subscriptions as OPML, sorted by title, for `ExportOPML`/`ExportOPMLDescriptor`.
    static func exportOPML(_ state: PodcastsState, opml: any OPMLConverting) -> String {
        let all = state.podcasts.values.sorted { ($0.title.lowercased(), $0.id) < ($1.title.lowercased(), $1.id) }
        return opml.opml(all)
    }

    public func domainInterface(connection strongConnection: Connection) throws -> Interface {
        // Weak: the connection holds this interface's handlers.
        weak let connection = strongConnection
        let podcasts = self.podcasts
        let inspector = self.inspector
        let feed = Argument("feed", .dictionary(key: .string, value: .variant))
        let podcastArgument = Argument("podcast", .string)
        return try Interface(BusContract.podcastsInterface.rawValue, methods: [
            Method(BusContract.Podcasts1.subscribe.rawValue, inputs: [Argument("url", .string)], outputs: [podcastArgument], async: { call, reply in
                let (given) = try call.arguments(String.self)
                try reply.write(try await Self.subscribe(given, podcasts: podcasts, inspector: inspector).id)
            }),
            // Every method whose cost grows with its input or the library makes its answer in a
            // task of its own (ListEpisodes, ExportOPML, InspectData, …), off the connection's
            // thread; what it answers from is taken in order with the other calls.
            Method(BusContract.Podcasts1.listEpisodes.rawValue, inputs: [podcastArgument, Argument("query", .dictionary(key: .string, value: .variant))],
                   outputs: [Argument("page", .array(.dictionary(key: .string, value: .variant))), Argument("info", .dictionary(key: .string, value: .variant))],
                   offloading: { call in
                let (given, values) = try call.arguments(String.self, [String: Value].self)
                var podcastID: String?
                if !given.isEmpty {
                    guard let podcast = podcasts.podcast(given) else {
                        throw BusError.invalidArgs(PodcastsDocument.unknownPodcast(given, in: podcasts.document.snapshot.state).message)
                    }
                    podcastID = podcast.id
                }
                let query = try PodcastsCodec.query(podcastID: podcastID, values)
                // Read first: the page holds at least every change up to it.
                let revision = podcasts.document.revision
                return { reply in
                    let page = try Refusals.translated { try podcasts.page(query) }
                    var (episodes, info) = PodcastsCodec.encode(page)
                    info["revision"] = .uint64(revision)
                    try reply.write(episodes)
                    try info.encode(to: &reply)
                    try LargeAnswers.check(reply.byteCount, on: connection, "A page of up to \(query.limit) episodes", instead: "ask for fewer (a smaller `limit`)")
                }
            }),
            // Every method that reads or writes the library does so off the connection's thread:
            // in a task, or on the document's owner (whose writes go into a burst).
            Method(BusContract.Podcasts1.getEpisode.rawValue, inputs: [Argument("episode", .string)], outputs: [Argument("record", .dictionary(key: .string, value: .variant))],
                   async: { call, reply in
                let (given) = try call.arguments(String.self)
                guard let episode = try podcasts.episode(given) else { throw BusError.invalidArgs("There is no episode '\(given.prefix(200))'.") }
                var record = (PodcastsCodec.encode(episode).stringKeyedEntries ?? [:]).mapValues(\.unwrapped)
                if let podcast = podcasts.document.snapshot.state.podcasts[episode.podcastID] { record["podcastTitle"] = .string(podcast.title) }
                try record.encode(to: &reply)
            }),
            Method(BusContract.Podcasts1.getQueue.rawValue, outputs: [Argument("episodes", .array(.dictionary(key: .string, value: .variant)))],
                   async: { _, reply in
                let titles = podcasts.document.snapshot.state.podcasts.mapValues(\.title)
                let episodes = try Refusals.translated { try podcasts.queuedEpisodes() }
                try reply.write(Value.array(.dictionary(key: .string, value: .variant), episodes.map { episode in
                    var record = (PodcastsCodec.encode(episode).stringKeyedEntries ?? [:]).mapValues(\.unwrapped)
                    if let title = titles[episode.podcastID] { record["podcastTitle"] = .string(title) }
                    return .dictionary(key: .string, value: .variant, record.sorted { $0.key < $1.key }.map { Value.DictionaryEntry(.string($0.key), .variant($0.value)) })
                }))
            }),
            // Async: the episode's chapters file may be fetched first (once; then it is kept).
            Method(BusContract.Podcasts1.getEpisodeDetails.rawValue, inputs: [Argument("episode", .string)], outputs: [Argument("record", .dictionary(key: .string, value: .variant))],
                   async: { [chapters, transcripts] call, reply in
                let (given) = try call.arguments(String.self)
                guard let record = try await podcasts.episodeRecord(given, chapters: chapters) else {
                    throw BusError.invalidArgs("There is no episode '\(given.prefix(200))'.")
                }
                // A shown episode's transcript is fetched (once, then kept) without holding up the answer.
                if let transcripts, record.details?.transcripts.isEmpty == false {
                    Task { _ = try? await podcasts.transcript(given, fetcher: transcripts) }
                }
                try PodcastsCodec.encode(record).encode(to: &reply)
                try LargeAnswers.check(reply.byteCount, on: connection, "The episode's record", instead: "its show notes are too long for this bus; GetEpisode gives the episode without them")
            }),
            // Async: the transcript may be fetched first (once; then it is kept).
            Method(BusContract.Podcasts1.getTranscript.rawValue, inputs: [Argument("episode", .string)], outputs: [Argument("transcript", .dictionary(key: .string, value: .variant))],
                   async: { [transcripts] call, reply in
                let (given) = try call.arguments(String.self)
                switch try await podcasts.transcript(given, fetcher: transcripts) {
                case .unknownEpisode:
                    throw BusError.invalidArgs("There is no episode '\(given.prefix(200))'.")
                case .none(let why):
                    throw BusError(BusContract.noTranscript, why)
                case .found(let transcript):
                    if transcript.segments.isEmpty { throw BusError(BusContract.fetchFailed, transcript.note ?? "The transcript \(transcript.url) gave no words.") }
                    try PodcastsCodec.encode(transcript).encode(to: &reply)
                    try LargeAnswers.check(reply.byteCount, on: connection, "The episode's transcript", instead: "read it at \(transcript.url)")
                }
            }),
            Method(BusContract.Podcasts1.searchTranscripts.rawValue, inputs: [Argument("search", .string), Argument("episodes", .array(.string))],
                   outputs: [Argument("moments", .array(.dictionary(key: .string, value: .variant)))], async: { call, reply in
                let (search, episodes) = try call.arguments(String.self, [String].self)
                guard search.contains(where: { !$0.isWhitespace }), search.utf8.count <= 1_000 else {
                    throw BusError.invalidArgs("Search for 1 to 1000 bytes of text, such as a phrase said in an episode.")
                }
                guard episodes.count <= EpisodeQuery.maximumLimit else {
                    throw BusError.invalidArgs("Ask for at most \(EpisodeQuery.maximumLimit) episodes at a time, not \(episodes.count).")
                }
                let moments = try Refusals.translated { try podcasts.transcriptMoments(matching: search, in: episodes, perEpisode: Self.momentsPerEpisode) }
                try reply.write(PodcastsCodec.encode(moments))
            }),
            Method(BusContract.Podcasts1.search.rawValue, inputs: [Argument("term", .string), Argument("options", .dictionary(key: .string, value: .variant))],
                   outputs: [Argument("results", .array(.dictionary(key: .string, value: .variant)))], async: { [search] call, reply in
                let (given, values) = try call.arguments(String.self, [String: Value].self)
                let options = try OptionsReader(values, allowed: ["limit"], what: "search option")
                let limit = try options.number("limit") ?? 25
                guard limit.rounded() == limit, (1...Double(Self.maximumSearchResults)).contains(limit) else {
                    throw BusError.invalidArgs("'limit' is a whole number from 1 to \(Self.maximumSearchResults), not \(limit.echoedText).")
                }
                let term = given.trimmed
                guard !term.isEmpty, term.utf8.count <= 200 else { throw BusError.invalidArgs("Search for 1 to 200 bytes of text, such as a podcast's name.") }
                guard let search else { throw BusError(.notSupported, "This almanacd has no podcast directory to search (the demo provider).") }
                let results: [PodcastSearchResult]
                do {
                    results = try await search.search(term, limit: Int(limit))
                } catch {
                    throw BusError(BusContract.fetchFailed, "\(error)")
                }
                try reply.write(Value.array(.dictionary(key: .string, value: .variant), results.map(PodcastsCodec.encode)))
            }),
            Method(BusContract.Podcasts1.importOPML.rawValue, inputs: [Argument("opml", .array(.byte))],
                   outputs: [Argument("subscribed", .array(.string)), Argument("failed", .dictionary(key: .string, value: .string))], async: { [opml] call, reply in
                let (data) = try call.arguments([UInt8].self)
                guard data.count <= Self.maximumInspectBytes else { throw BusError.invalidArgs("An OPML file can be at most \(Self.maximumInspectBytes / 1024 / 1024) MiB.") }
                let results = try await Self.importOPML(data, opml: opml, podcasts: podcasts, inspector: inspector)
                try reply.write(arguments: results.subscribed, results.failed)
            }),
            Method(BusContract.Podcasts1.importOPMLFile.rawValue, inputs: [Argument("opml", .unixFD)],
                   outputs: [Argument("subscribed", .array(.string)), Argument("failed", .dictionary(key: .string, value: .string))], async: { [opml] call, reply in
                let (file) = try call.arguments(UnixFD.self)
                let data = try LargeAnswers.read(file, limit: Self.maximumInspectBytes, "An OPML file")
                let results = try await Self.importOPML(data, opml: opml, podcasts: podcasts, inspector: inspector)
                try reply.write(arguments: results.subscribed, results.failed)
            }),
            Method(BusContract.Podcasts1.exportOPML.rawValue, outputs: [Argument("opml", .string)], offloading: { [opml] _ in
                let state = podcasts.document.snapshot.state
                return { reply in
                    try reply.write(Self.exportOPML(state, opml: opml))
                    try LargeAnswers.check(reply.byteCount, on: connection, "The OPML document", instead: "call ExportOPMLDescriptor to receive it as a file descriptor")
                }
            }),
            Method(BusContract.Podcasts1.exportOPMLDescriptor.rawValue, outputs: [Argument("payload", .unixFD)], offloading: { [opml] _ in
                let state = podcasts.document.snapshot.state
                return { reply in
                    let text = Self.exportOPML(state, opml: opml)
                    try reply.write(try LargeAnswers.payload("The OPML document") { try $0.write(text) })
                }
            }),
            Method(BusContract.Podcasts1.unsubscribe.rawValue, inputs: [podcastArgument], async: { call, _ in
                let (podcast) = try call.arguments(String.self)
                _ = try await podcasts.withOwner { try Refusals.translated { try podcasts.unsubscribe(podcasts.podcast(podcast)?.id ?? podcast) } }
            }),
            Method(BusContract.Podcasts1.refreshPodcast.rawValue, inputs: [podcastArgument], async: { [service] call, _ in
                let (given) = try call.arguments(String.self)
                guard let podcast = podcasts.podcast(given) else {
                    throw BusError.invalidArgs(PodcastsDocument.unknownPodcast(given, in: podcasts.document.snapshot.state).message)
                }
                // The count of ended reads tells which outcome is this call's (no view, so no race with delivery).
                let before = podcasts.reads(of: podcast.id).count
                let outcome: (count: UInt64, failure: String?)
                if !podcasts.take([podcast.id], force: true).isEmpty {
                    await service.read([podcast])
                    outcome = podcasts.reads(of: podcast.id)
                } else {
                    // Already being read: that read's outcome is the answer.
                    outcome = await podcasts.reads(of: podcast.id, after: before, within: .seconds(60))
                }
                guard outcome.count > before else {
                    throw BusError(BusContract.fetchFailed, "\(FeedCredentials.redacted(podcast.feedURL)) is still being read after a minute; try again later.")
                }
                if let message = outcome.failure { throw BusError(BusContract.fetchFailed, "\(FeedCredentials.redacted(podcast.feedURL)): \(message)") }
            }),
            // In a task: the episode is looked up in the library.
            Method(BusContract.Podcasts1.download.rawValue, inputs: [Argument("episode", .string)], outputs: [Argument("job", .objectPath)],
                   async: { [downloads] call, reply in
                let (episode) = try call.arguments(String.self)
                guard let downloads else { throw BusError(.notSupported, "This almanacd does not download.") }
                try reply.write(BusContract.downloadPath(try downloads.download(episode, for: call.sender)))
            }),
            // A podcast's own settings: the rules (and the refusals) are the document's.
            Method(BusContract.Podcasts1.getPodcastSettings.rawValue, inputs: [podcastArgument], outputs: [Argument("settings", .dictionary(key: .string, value: .variant))]) { call, reply in
                let (given) = try call.arguments(String.self)
                let (_, preferences) = try Refusals.translated { try podcasts.preferences(of: given) }
                try reply.write(PodcastsCodec.encode(preferences))
            },
            Method(BusContract.Podcasts1.setPodcastSettings.rawValue, inputs: [podcastArgument, Argument("settings", .dictionary(key: .string, value: .variant))],
                   async: { call, _ in
                let (given, values) = try call.arguments(String.self, [String: Value].self)
                let submission = try PodcastsCodec.preferencesSubmission(values)
                _ = try await podcasts.withOwner { try Refusals.translated { try podcasts.setPreferences(submission, of: given) } }
            }),
            Method(BusContract.Podcasts1.rename.rawValue, inputs: [podcastArgument, Argument("title", .string)], async: { call, _ in
                let (podcast, title) = try call.arguments(String.self, String.self)
                _ = try await podcasts.withOwner { try Refusals.translated { try podcasts.rename(podcasts.podcast(podcast)?.id ?? podcast, to: title) } }
            }),
            Method(BusContract.Podcasts1.inspect.rawValue, inputs: [Argument("url", .string)], outputs: [feed], async: { call, reply in
                let (url) = try call.arguments(String.self)
                try reply.write(FeedCodec.encode(try await Self.inspect(url: url, inspector: inspector)))
                try LargeAnswers.check(reply.byteCount, on: connection, "The feed's answer", instead: "call InspectDescriptor to receive it as a file descriptor")
            }),
            // The feed's bytes, unparsed, for a client that parses them itself (the CLI).
            Method(BusContract.Podcasts1.fetchFeed.rawValue, inputs: [Argument("url", .string)],
                   outputs: [Argument("feed", .unixFD), Argument("feedURL", .string), Argument("baseURL", .string)], async: { call, reply in
                let (url) = try call.arguments(String.self)
                let fetched: FetchedFeed
                do {
                    fetched = try await inspector.fetch(url: url.trimmed)
                } catch {
                    throw Self.inspectError(error)
                }
                try reply.write(try UnixFD.sealedMemory(containing: fetched.body, name: "almanac-feed"))
                try reply.write(FeedCredentials.redacted(fetched.feedURL))
                try reply.write(FeedCredentials.redacted(fetched.baseURL))
            }),
            Method(BusContract.Podcasts1.inspectDescriptor.rawValue, inputs: [Argument("url", .string)], outputs: [Argument("payload", .unixFD)], async: { call, reply in
                let (url) = try call.arguments(String.self)
                let feed = FeedCodec.encode(try await Self.inspect(url: url, inspector: inspector))
                try reply.write(try LargeAnswers.payload("The feed's answer") { try $0.write(feed) })
            }),
            // Off the connection's thread: a big file takes a while to parse.
            Method(BusContract.Podcasts1.inspectFile.rawValue, inputs: [Argument("feed", .unixFD), Argument("baseURL", .string)], outputs: [Argument("payload", .unixFD)], async: { call, reply in
                let (file, baseURL) = try call.arguments(UnixFD.self, String.self)
                let data = try LargeAnswers.read(file, limit: LargeAnswers.maximumFeedFileBytes, "A feed file")
                let parsed: ParsedFeed
                do {
                    parsed = try inspector.inspect(bytes: data, baseURL: baseURL.isEmpty ? nil : baseURL)
                } catch {
                    throw Self.inspectError(error)
                }
                let feed = FeedCodec.encode(parsed)
                try reply.write(try LargeAnswers.payload("The feed's answer") { try $0.write(feed) })
            }),
            Method(BusContract.Podcasts1.inspectData.rawValue, inputs: [Argument("data", .array(.byte)), Argument("baseURL", .string)], outputs: [feed], async: { call, reply in
                let (data, baseURL) = try call.arguments([UInt8].self, String.self)
                guard data.count <= Self.maximumInspectBytes else {
                    throw BusError.invalidArgs("A feed can be at most \(Self.maximumInspectBytes / 1024 / 1024) MiB, not \(data.count / 1024 / 1024) MiB.")
                }
                do {
                    try reply.write(FeedCodec.encode(inspector.inspect(bytes: data, baseURL: baseURL.isEmpty ? nil : baseURL)))
                } catch {
                    throw Self.inspectError(error)
                }
                try LargeAnswers.check(reply.byteCount, on: connection, "The feed's answer", instead: "pass the file to InspectFile to receive it as a file descriptor")
            }),
        ], properties: [
            Property(BusContract.Podcasts1.subscriptions.rawValue, .array(.dictionary(key: .string, value: .variant))) {
                Self.subscriptions(podcasts.document.snapshot.state)
            },
            Property(BusContract.Podcasts1.settings.rawValue, .dictionary(key: .string, value: .variant)) {
                PodcastsCodec.encode(podcasts.document.snapshot.state.settings)
            },
        ])
    }
}
