public import AlmanacCore
public import AlmanacModels
public import AlmanacWire
public import DBus
public import FoundationEssentials
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
    public var nextRefresh: Date? { podcasts.nextDue }
    public typealias Codec = PodcastsCodec

    public func failure(in change: PodcastsChange) -> String? { change.failure }

    /// Sends the submission to the document's owner: the answer comes once the burst that
    /// holds it is saved and published.
    public func send(_ submission: PodcastsSubmission, from view: ViewKey?, answer: @escaping @Sendable (Result<UInt64, any Error>) -> Void) {
        podcasts.send(submission, from: view, answer: answer)
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

    public func domainProperties(changedBy change: PodcastsChange) throws -> (InterfaceName, [(String, Value)])? {
        switch change {
        case .subscribed, .unsubscribed, .renamed, .podcastSettings:
            return (BusContract.podcastsInterface, [BusContract.Podcasts1.subscriptions.entry(try Self.subscriptions(podcasts.document.snapshot.state))])
        case .settings(let settings):
            return (BusContract.podcastsInterface, [BusContract.Podcasts1.settings.entry(try WireCoding.dictionary(settings))])
        default:
            return nil
        }
    }

    public func domainProperties(of state: PodcastsState) throws -> (InterfaceName, [(String, Value)])? {
        (BusContract.podcastsInterface, [BusContract.Podcasts1.subscriptions.entry(try Self.subscriptions(state)),
                                         BusContract.Podcasts1.settings.entry(try WireCoding.dictionary(state.settings))])
    }

    /// Subscribes to the feed at `url` after reading it; the podcast's id (the same one again
    /// for a feed already subscribed, and then `isNew` is false).
    static func subscribe(_ url: String, podcasts: PodcastsDocument, inspector: any FeedInspecting) async throws -> (id: String, isNew: Bool) {
        let url = url.trimmed
        if let known = podcasts.podcast(url) { return (known.id, false) }
        let (feedURL, feed) = try await inspector.locate(url: url)
        // A web page that announces a feed already subscribed.
        if let known = podcasts.podcast(feedURL) { return (known.id, false) }
        let podcast = FeedMapping.podcast(from: feed, feedURL: feedURL)
        // Two calls for one new feed at once: the second finds it subscribed and changes nothing.
        let (episodes, details, olderPagesURL) = (FeedMapping.episodes(from: feed, podcastID: podcast.id),
                                                  FeedMapping.details(from: feed, podcastID: podcast.id), FeedMapping.olderPagesURL(of: feed))
        let revision = try await podcasts.withOwner {
            try podcasts.subscribe(podcast, episodes: episodes, details: details, olderPagesURL: olderPagesURL)
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
                    } catch let error as any NamedError {
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

    static func subscriptions(_ state: PodcastsState) throws -> [VariantDictionary] {
        try WireCoding.dictionaries(state.podcasts.values.sorted { $0.id < $1.id }.map { Subscription($0, preferences: state.preferences(of: $0.id)) })
    }

    /// The most bytes `InspectData` takes (D-Bus itself allows 128 MiB messages).
    static let maximumInspectBytes = 32 * 1024 * 1024

    /// Reads and parses the feed at `url` for `Inspect`/`InspectDescriptor`.
    static func inspect(url: String, inspector: any FeedInspecting) async throws -> ParsedFeed {
        try await inspector.inspect(url: url)
    }

    /// Subscribes to every feed OPML `data` lists, for `ImportOPML`/`ImportOPMLFile`.
    static func importOPML(_ data: [UInt8], opml: any OPMLConverting, podcasts: PodcastsDocument,
                           inspector: any FeedInspecting) async throws -> (subscribed: [String], failed: [String: String]) {
        let outlines = try opml.subscriptions(fromOPML: data)
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

    /// `Podcasts1`: its methods by concern (PodcastsAdapter+Library, +Episodes, +Feeds, +OPML)
    /// and its properties.
    public func domainInterface(connection strongConnection: Connection) throws -> Interface {
        let podcasts = self.podcasts
        let methods = libraryMethods() + episodeMethods(connection: strongConnection)
            + feedMethods(connection: strongConnection) + opmlMethods(connection: strongConnection)
        return try Interface(BusContract.podcastsInterface.rawValue, methods: methods, properties: [
            Property(BusContract.Podcasts1.subscriptions) { try Self.subscriptions(podcasts.document.snapshot.state) },
            Property(BusContract.Podcasts1.settings) { try WireCoding.dictionary(podcasts.document.snapshot.state.settings) },
        ])
    }
}
