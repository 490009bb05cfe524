public import AlmanacModels
public import DBus

/// The CLI's side of the bus contract: proxies for the daemon's root, documents and views.
public struct AlmanacClient: Sendable {
    public let connection: Connection

    public init(connection: Connection) {
        self.connection = connection
    }

    /// Connects to the session bus (or `address`).
    public static func connect(address: String? = nil) async throws -> AlmanacClient {
        let connection = if let address { try await Connection.connect(to: address) } else { try await Connection.session() }
        return AlmanacClient(connection: connection)
    }

    /// The unique name of the running daemon, or `nil` when none runs.
    public func daemonOwner() async throws -> BusName? {
        try await connection.nameOwner(of: BusContract.serviceName)
    }

    /// Version, provider and every document's counters. Starts the daemon through D-Bus
    /// activation when it is installed and not running.
    public func status() async throws -> DaemonStatus {
        let root = try await properties(at: BusContract.rootPath, BusContract.rootInterface)
        var documents: [DaemonStatus.Document] = []
        for name in DocumentName.allCases {
            let values = try await properties(at: BusContract.documentPath(name), BusContract.documentInterface)
            documents.append(DaemonStatus.Document(
                name: name.rawValue,
                revision: values[BusContract.Document1.revision] ?? 0,
                viewCount: values[BusContract.Document1.viewCount] ?? 0,
                loading: values[BusContract.Document1.loading] ?? false,
                lastError: values[BusContract.Document1.lastError] ?? "",
                nextRefresh: values[BusContract.Document1.nextRefresh].flatMap { $0 > 0 ? $0 : nil }
            ))
        }
        let owner = try await daemonOwner()
        return DaemonStatus(version: root[BusContract.Almanac1.version] ?? "?", provider: root[BusContract.Almanac1.provider] ?? "?",
                            owner: owner?.rawValue ?? "", network: root[BusContract.Almanac1.network] ?? NetworkState.unknown.rawValue,
                            documents: documents)
    }

    /// `GetState` of a document (through `GetStateDescriptor` when it is too large for a
    /// message on this bus).
    public func state(of document: DocumentName) async throws -> (revision: UInt64, state: [String: Value]) {
        do {
            return try await documentCall(document, BusContract.Document1.getState, ())
        } catch let error as BusError where error.name == .limitsExceeded {
            let payload = try await documentCall(document, BusContract.Document1.getStateDescriptor, ())
            return try BusContract.Document1.getState.reply(of: Message(payload: payload))
        }
    }

    /// Registers a view; the daemon removes it when this connection closes.
    public func addView(_ document: DocumentName, options: [String: Value]) async throws -> ObjectPath {
        try await documentCall(document, BusContract.Document1.addView, options)
    }

    /// Registers a view of the weather document watching `options`.
    public func addView(_ options: WeatherViewOptions) async throws -> ObjectPath {
        try await addView(.weather, options: WireCoding.fields(options))
    }

    /// Registers a view of the podcasts document watching `options`.
    public func addView(_ options: PodcastsViewOptions) async throws -> ObjectPath {
        try await addView(.podcasts, options: WireCoding.fields(options))
    }

    public func removeView(_ document: DocumentName, _ view: ObjectPath) async throws {
        try await documentCall(document, BusContract.Document1.removeView, view)
    }

    /// `LoadMore` of a view of this connection's: `false` when a load is under way or there is
    /// no more. The page arrives as `Updated` to the view.
    public func loadMore(_ view: ObjectPath) async throws -> Bool {
        try await connection.call(BusContract.View1.loadMore, on: BusContract.serviceName, path: view, ())
    }

    /// `RefreshList` of a view of this connection's: its first page again, replacing the list.
    public func refreshList(_ view: ObjectPath) async throws -> Bool {
        try await connection.call(BusContract.View1.refreshList, on: BusContract.serviceName, path: view, ())
    }

    /// `Document1.Submit`: changes a document; the revision after the change.
    public func submit(_ document: DocumentName, _ change: [String: Value]) async throws -> UInt64 {
        try await documentCall(document, BusContract.Document1.submit, change)
    }

    /// `Almanac1.SetSetting`: changes a daemon setting, whichever document owns it; the
    /// revision of that document after the change.
    public func setSetting(_ setting: Setting, _ value: Value) async throws -> UInt64 {
        try await connection.call(BusContract.Almanac1.setSetting, on: BusContract.serviceName, path: BusContract.rootPath, (setting.busKey, value))
    }

    /// `View1.Submit` of a view of this connection's: changes its document with the view as
    /// the change's origin; the revision after the change.
    public func submit(through view: ObjectPath, _ change: [String: Value]) async throws -> UInt64 {
        try await connection.call(BusContract.View1.submit, on: BusContract.serviceName, path: view, change)
    }

    /// The `Updated` signals the daemon (`from`, its unique name) sends to this connection's
    /// views of `document`; signals from anyone else are not accepted. Subscribe before adding
    /// the view so that no update is missed.
    public func updates(of document: DocumentName, from daemon: BusName) async throws -> SignalStream {
        try await connection.signals(matching: BusContract.View1.updated.rule(sender: daemon, pathNamespace: BusContract.documentPath(document)), bufferLimit: 256)
    }

    /// The daemon's unique name, starting it through D-Bus activation when it is installed
    /// and not running. Throws `ServiceUnknown` when it cannot be had.
    public func startDaemon() async throws -> BusName {
        if let owner = try await daemonOwner() { return owner }
        _ = try await connection.call(BusContract.serviceName, path: BusContract.rootPath, interface: .peer, method: "Ping") { _ in }
        guard let owner = try await daemonOwner() else {
            throw BusError(.serviceUnknown, "almanacd started but left again.")
        }
        return owner
    }

    /// Saves a place: the daemon fetches it from now on, with or without views.
    public func addLocation(_ location: String) async throws {
        try await weatherCall(BusContract.Weather1.addLocation, location)
    }

    /// Forgets a saved place (`UnknownLocation` when it is not saved).
    public func removeLocation(_ location: String) async throws {
        try await weatherCall(BusContract.Weather1.removeLocation, location)
    }

    /// The places a name may mean (`Weather1.SearchPlaces`), best first.
    public func searchPlaces(_ name: String, count: Int) async throws -> [PlaceMatch] {
        let items = try await weatherCall(BusContract.Weather1.searchPlaces, (name, UInt32(clamping: count)), timeout: .seconds(60))
        return try WireCoding.decode([PlaceMatch].self, from: items)
    }

    /// The first `hours` hours of a place's reading (`Weather1.HourlyForecast`: all the daemon
    /// holds, up to 16 days, where the state carries two days); `UnknownLocation` when the
    /// daemon has no reading of it.
    public func hourlyForecast(_ location: String, hours: Int) async throws -> [HourlyForecast] {
        let items = try await weatherCall(BusContract.Weather1.hourlyForecast, (location, UInt32(clamping: hours)))
        return try WireCoding.decode([HourlyForecast].self, from: items)
    }

    /// The saved places.
    public func savedLocations() async throws -> [String] {
        try await connection.property(BusContract.Weather1.locations, on: BusContract.serviceName, path: BusContract.documentPath(.weather))
    }

    /// Subscribes to the feed at `url` (the daemon reads it first); returns the podcast's id.
    public func subscribe(_ url: String) async throws -> String {
        try await podcastsCall(BusContract.Podcasts1.subscribe, url, timeout: .seconds(60))
    }

    /// A page of episodes (`podcast` empty: every podcast's), as `Podcasts1.ListEpisodes`.
    public func listEpisodes(podcast: String, query: [String: Value]) async throws -> (episodes: [Episode], total: Int, nextCursor: String?, revision: UInt64) {
        let (items, info) = try await podcastsCall(BusContract.Podcasts1.listEpisodes, (podcast, query))
        let page = try WireCoding.decode(EpisodePageInfo.self, fromFields: info)
        return (try WireCoding.decode([Episode].self, from: items), Int(page.total), page.nextCursor, page.revision ?? 0)
    }

    /// One episode's record (`GetEpisode`) and its podcast's title.
    public func episode(_ id: String) async throws -> (episode: Episode, podcastTitle: String?) {
        let fields = try await podcastsCall(BusContract.Podcasts1.getEpisode, id)
        let record = try WireCoding.decode(EpisodeWithTitle.self, fromFields: fields)
        return (record.episode, record.podcastTitle)
    }

    /// Several episodes' records (`GetEpisodes`) and their podcasts' titles, in the order
    /// asked, each once; unknown ids are left out. One call for up to 500 different ids.
    public func episodes(_ ids: [String]) async throws -> [(episode: Episode, podcastTitle: String?)] {
        var seen = Set<String>()
        let asked = ids.filter { seen.insert($0).inserted }
        var found: [(episode: Episode, podcastTitle: String?)] = []
        for start in stride(from: 0, to: asked.count, by: EpisodeQuery.maximumLimit) {
            let page = Array(asked[start..<min(start + EpisodeQuery.maximumLimit, asked.count)])
            let records = try await podcastsCall(BusContract.Podcasts1.getEpisodes, page)
            found += try WireCoding.decode([EpisodeWithTitle].self, from: records).map { ($0.episode, $0.podcastTitle) }
        }
        return found
    }

    /// The Up Next queue's episodes, head first, each with its podcast's title (`GetQueue`).
    public func queue() async throws -> [(episode: Episode, podcastTitle: String?)] {
        let items = try await podcastsCall(BusContract.Podcasts1.getQueue, ())
        return try WireCoding.decode([EpisodeWithTitle].self, from: items).map { ($0.episode, $0.podcastTitle) }
    }

    /// How long each podcast was listened to on each of the last `days` local days
    /// (`GetListeningStats`), oldest day first.
    public func listeningStats(days: Int) async throws -> [ListeningTotal] {
        try WireCoding.decode([ListeningTotal].self, from: try await podcastsCall(BusContract.Podcasts1.getListeningStats, UInt32(clamping: days)))
    }

    /// Edits the Up Next queue (`Submit` to the podcasts document); the revision after it.
    @discardableResult
    public func editQueue(_ edit: QueueSubmission) async throws -> UInt64 {
        try await submit(.podcasts, WireCoding.fields(edit))
    }

    /// One episode's full record (`GetEpisodeDetails`): notes, chapters and the rest. The
    /// daemon may fetch the episode's chapters file first, hence the longer wait.
    public func episodeRecord(_ id: String) async throws -> EpisodeRecord {
        let fields = try await podcastsCall(BusContract.Podcasts1.getEpisodeDetails, id, timeout: .seconds(60))
        return try WireCoding.decode(EpisodeRecord.self, fromFields: fields)
    }

    /// An episode's transcript (`GetTranscript`). The daemon may fetch it first, hence the
    /// longer wait. `org.almanac.Error.NoTranscript` when there is none to read,
    /// `FetchFailed` when it could not be read (the message says why).
    public func transcript(_ id: String) async throws -> Transcript {
        let fields = try await podcastsCall(BusContract.Podcasts1.getTranscript, id, timeout: .seconds(60))
        return try WireCoding.decode(Transcript.self, fromFields: fields)
    }

    /// Where `search` is said in the kept transcripts of `episodes` (`SearchTranscripts`).
    public func transcriptMoments(_ search: String, in episodes: [String]) async throws -> [TranscriptMoment] {
        try WireCoding.decode([TranscriptMoment].self, from: try await podcastsCall(BusContract.Podcasts1.searchTranscripts, (search, episodes)))
    }

    /// Podcasts a directory finds for `term` (`Podcasts1.Search`), best first.
    public func searchPodcasts(_ term: String, limit: Int) async throws -> [PodcastSearchResult] {
        let items = try await podcastsCall(BusContract.Podcasts1.search, (term, ["limit": .uint32(UInt32(clamping: limit))]), timeout: .seconds(60))
        return try WireCoding.decode([PodcastSearchResult].self, from: items)
    }

    /// Subscribes to every feed an OPML file (passed by descriptor: `ImportOPMLFile`) lists;
    /// the feeds subscribed and, for the rest, why not.
    public func importOPML(file: UnixFD) async throws -> (subscribed: [String], failed: [String: String]) {
        try await podcastsCall(BusContract.Podcasts1.importOPMLFile, file, timeout: .seconds(1800))
    }

    /// The subscriptions as an OPML document (through `ExportOPMLDescriptor` when it is too
    /// large for a message on this bus).
    public func exportOPML() async throws -> String {
        do {
            return try await podcastsCall(BusContract.Podcasts1.exportOPML, ())
        } catch let error as BusError where error.name == .limitsExceeded {
            let payload = try await podcastsCall(BusContract.Podcasts1.exportOPMLDescriptor, ())
            return try Message(payload: payload).arguments(String.self)
        }
    }

    /// Gives up a podcast, named by id or feed URL.
    public func unsubscribe(_ podcast: String) async throws {
        try await podcastsCall(BusContract.Podcasts1.unsubscribe, podcast)
    }

    public func rename(_ podcast: String, to title: String) async throws {
        try await podcastsCall(BusContract.Podcasts1.rename, (podcast, title))
    }

    /// Reads one podcast's feed now (`RefreshPodcast`), waiting at most `timeout` (the call
    /// may wait its turn behind the daemon's other reads).
    public func refreshPodcast(_ podcast: String, timeout: Duration) async throws {
        try await podcastsCall(BusContract.Podcasts1.refreshPodcast, podcast, timeout: timeout)
    }

    /// Fetches one podcast's feed now, or every feed when `nil`; returns when done.
    public func refreshPodcasts(_ podcast: String?) async throws {
        if let podcast {
            try await podcastsCall(BusContract.Podcasts1.refreshPodcast, podcast, timeout: .seconds(120))
        } else {
            try await documentCall(.podcasts, BusContract.Document1.refresh, (), timeout: .seconds(300))
        }
    }

    /// Every subscribed podcast.
    public func subscriptions() async throws -> [Podcast] {
        try await subscriptionsWithSettings().map(\.podcast)
    }

    /// Every subscribed podcast with its own settings.
    public func subscriptionsWithSettings() async throws -> [(podcast: Podcast, preferences: PodcastPreferences)] {
        let items = try await connection.property(BusContract.Podcasts1.subscriptions, on: BusContract.serviceName, path: BusContract.documentPath(.podcasts))
        return try WireCoding.decode([Subscription].self, from: items).map { ($0.podcast, $0.preferences) }
    }

    /// One podcast's own settings (by id or feed URL).
    public func podcastPreferences(_ podcast: String) async throws -> PodcastPreferences {
        try WireCoding.decode(PodcastPreferences.self, from: try await podcastsCall(BusContract.Podcasts1.getPodcastSettings, podcast).value)
    }

    /// Changes some of one podcast's own settings (`SetPodcastSettings`; keys in docs/bus-api.md).
    public func setPodcastPreferences(_ podcast: String, _ settings: [String: Value]) async throws {
        try await podcastsCall(BusContract.Podcasts1.setPodcastSettings, (podcast, settings))
    }

    /// Calls a method of the podcasts document's `Podcasts1`.
    private func podcastsCall<A, R>(_ method: BusMethod<A, R>, _ arguments: A.Values, timeout: Duration = Connection.defaultTimeout) async throws -> R.Values {
        try await connection.call(method, on: BusContract.serviceName, path: BusContract.documentPath(.podcasts), arguments, timeout: timeout)
    }

    /// The feed at `url` (or the feed a web page there announces), fetched by the daemon and
    /// handed over unparsed, by descriptor (`FetchFeed`): its bytes, its own address, and the
    /// address relative links resolve against.
    public func fetchFeed(url: String) async throws -> FetchedFeed {
        let (file, feedURL, baseURL) = try await podcastsCall(BusContract.Podcasts1.fetchFeed, url, timeout: .seconds(60))
        return FetchedFeed(feedURL: feedURL, baseURL: baseURL, body: try file.readAll(limit: Self.maximumFetchedFeedBytes))
    }

    /// The most bytes `fetchFeed` reads (the daemon fetches at most 32 MiB).
    public static let maximumFetchedFeedBytes = 64 * 1024 * 1024

    /// Parses a feed file, passed by descriptor (`InspectFile`), without subscribing: the
    /// daemon needs no access to it, and neither way is limited by the bus's message size.
    public func inspect(file: UnixFD, baseURL: String) async throws -> Value {
        let payload = try await podcastsCall(BusContract.Podcasts1.inspectFile, (file, baseURL), timeout: .seconds(120))
        return try Message(payload: payload).arguments([String: Value].self).asVariantDictionary
    }

    /// Asks the daemon to download an episode; the job's object path.
    public func download(_ episode: String) async throws -> ObjectPath {
        try await podcastsCall(BusContract.Podcasts1.download, episode)
    }

    /// A job's properties now (`org.almanac.Download1`).
    public func downloadProperties(_ path: ObjectPath) async throws -> [String: Value] {
        try await properties(at: path, BusContract.downloadInterface)
    }

    /// Every download job the daemon lists (running, queued, and finished a little while ago).
    public func downloadJobs() async throws -> [DownloadJob] {
        let reply = try await connection.call(BusContract.serviceName, path: BusContract.rootPath, interface: .objectManager,
                                              method: "GetManagedObjects")
        let objects = try reply.arguments([ObjectPath: [String: [String: Value]]].self)
        return try objects.compactMap { path, interfaces in
            try interfaces[BusContract.downloadInterface.rawValue].flatMap { try WireCoding.decode(DownloadProperties.self, fromFields: $0).job(at: path) }
        }.sorted { $0.id < $1.id }
    }

    /// Cancels a job.
    public func cancelDownload(_ path: ObjectPath) async throws {
        try await connection.call(BusContract.Download1.cancel, on: BusContract.serviceName, path: path, ())
    }

    /// Property changes of every download job (subscribe before asking for a download, so none is missed).
    public func downloadChanges() async throws -> SignalStream {
        try await connection.signals(matching: MatchRule(
            interface: .properties, member: "PropertiesChanged", pathNamespace: BusContract.downloadsPath
        ), bufferLimit: 256)
    }

    /// The podcast settings.
    public func podcastSettings() async throws -> PodcastSettings {
        let settings = try await connection.property(BusContract.Podcasts1.settings, on: BusContract.serviceName, path: BusContract.documentPath(.podcasts))
        return try WireCoding.decode(PodcastSettings.self, from: settings.value)
    }

    /// Flow control: tells the daemon this client has `view`'s updates up to `revision`
    /// (`View1.Ack`, no reply wanted). A client that acknowledges as it renders is never
    /// held back (docs/bus-api.md, "Flow control").
    public func acknowledge(_ view: ObjectPath, upTo revision: UInt64) {
        try? connection.callWithoutReply(BusContract.View1.ack, on: BusContract.serviceName, path: view, revision)
    }

    /// How many updates a view's client renders between two acknowledgements.
    public static let acknowledgeEvery = UpdateWindow.size / 4

    /// Removes a view without waiting for the answer (for a process about to exit).
    public func removeViewWithoutWaiting(_ document: DocumentName, _ view: ObjectPath) {
        try? connection.callWithoutReply(BusContract.Document1.removeView, on: BusContract.serviceName, path: BusContract.documentPath(document), view)
    }

    /// Property changes of `document` (`Loading`, `Revision`, `LastError`, `ViewCount`).
    public func propertyChanges(of document: DocumentName) async throws -> SignalStream {
        try await connection.signals(matching: MatchRule(
            interface: .properties, member: "PropertiesChanged", path: BusContract.documentPath(document)
        ), bufferLimit: 64)
    }

    /// Ownership changes of the daemon's name: it starting, stopping, restarting.
    public func daemonChanges() async throws -> AsyncCompactMapSequence<SignalStream, NameOwnerChange> {
        try await connection.nameOwnerChanges(of: BusContract.serviceName)
    }

    /// Calls a method of the weather document's `Weather1`.
    private func weatherCall<A, R>(_ method: BusMethod<A, R>, _ arguments: A.Values, timeout: Duration = Connection.defaultTimeout) async throws -> R.Values {
        try await connection.call(method, on: BusContract.serviceName, path: BusContract.documentPath(.weather), arguments, timeout: timeout)
    }

    /// Calls a method of a document's `Document1`.
    private func documentCall<A, R>(_ document: DocumentName, _ method: BusMethod<A, R>, _ arguments: A.Values,
                                    timeout: Duration = Connection.defaultTimeout) async throws -> R.Values {
        try await connection.call(method, on: BusContract.serviceName, path: BusContract.documentPath(document), arguments, timeout: timeout)
    }

    private func properties(at path: ObjectPath, _ interface: InterfaceName) async throws -> [String: Value] {
        try await connection.properties(of: interface, on: BusContract.serviceName, path: path)
    }
}

extension [String: Value] {
    /// The dictionary as one `a{sv}` value, keys sorted.
    var asVariantDictionary: Value {
        .dictionary(key: .string, value: .variant, sorted { $0.key < $1.key }.map { Value.DictionaryEntry(.string($0.key), .variant($0.value)) })
    }
}
