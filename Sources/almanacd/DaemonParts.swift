import AlmanacBus
import AlmanacCore
import AlmanacModels
import AlmanacDemo
import AlmanacServices
import AlmanacViews
import DBus
import FoundationEssentials
import Logging

/// What the daemon is made of, and what is built from what: the store feeds the two
/// documents; each document is its service's data source and delegate; the downloads follow
/// the podcasts document; the cleaner deletes the downloads no longer wanted (sparing what
/// media players have open); the server puts the documents on the bus; the notifier and the
/// media-player listener watch the podcasts document; the machine watcher tells the network
/// conditions of resumes and the network, which the downloads and the schedulers follow.
/// Built here and nowhere else; started and stopped by `Daemon`.
struct DaemonParts {
    let server: AlmanacServer
    let downloads: DownloadManager
    let cleaner: DownloadCleaner
    let notifier: DesktopNotifier
    let rainNotifier: RainNotifier
    /// Desktop notifications of severe and extreme weather alerts.
    let alertNotifier: AlertNotifier
    let players: MPRISListener
    /// Almanac steering those players (the sleep timer, chapters), and its object on the bus.
    let steering: PlayerSteering
    let playerExport: PlayerExport
    /// Held here: a service's document holds it only weakly, as its data source and delegate.
    let weatherService: any WeatherService
    let podcastService: PodcastService
    /// Where the user is, for `"here"`, from GeoClue.
    let here: GeoClueLocator
    /// The documents, which the daemon's schedulers ask when their next item falls due.
    let weather: WeatherDocument
    let podcasts: PodcastsDocument
    /// The sync with a gpodder.net-compatible server, and its object on the bus.
    let sync: PodcastSync
    let syncExport: SyncExport
    /// Fetches the transcripts of episodes queued or downloaded (none in the demo, which fetches nothing).
    let transcripts: TranscriptPrefetcher?
    /// What a resume or the network means to the daemon (catch-ups, the metered hold), and
    /// the watcher of logind and NetworkManager on the system bus that tells it.
    let machine: NetworkConditions
    let machineWatcher: MachineWatcher
    /// The one clock every part reads the time from and sleeps on (`SystemClock`, or a test's
    /// `SimulatedClock`: `DaemonClock`).
    let clock: any WallClock
    /// The library's backups: daily, on request, and restores through the documents' owners.
    let backups: LibraryBackups

    init(options: Almanacd, store: StateStore, folders: DaemonFolders, connection: Connection, clock: any WallClock, logger: Logger) throws {
        self.clock = clock
        let time = clock.reading
        // A week-old reading is no longer worth serving as "last known".
        let kept = try store.weatherState()
        try? store.pruneReadings(olderThan: clock.now.addingTimeInterval(-7 * 86_400), keeping: kept.savedLocations)
        weather = WeatherDocument(kept, policy: RefreshSchedule.Policy(interval: options.effectiveWeatherInterval),
                                  alertsPolicy: RefreshSchedule.Policy(interval: options.alertsInterval), archive: store, clock: time, logger: logger.subsystem(.weather))
        podcasts = try PodcastsDocument(
            archive: store,
            policy: RefreshSchedule.Policy(interval: options.effectivePodcastInterval, firstRetry: 60, longestRetry: 86_400),
            minimumRefreshInterval: options.refreshIntervalFloor, clock: time, logger: logger.subsystem(.podcasts)
        )
        machine = NetworkConditions(podcasts: podcasts, awaitsFirstReading: true, clock: time, logger: logger.subsystem(.machine))
        machineWatcher = MachineWatcher(events: machine, systemBusAddress: options.systemBusAddress, logger: logger.subsystem(.machine))
        let demo = options.provider == .demo
        // One limit for every feed the daemon reads, whoever asks (reader, inspect, subscribe, sync).
        let feedReads = RSSFeedFetcher.feedReadLimiter()
        // Where each feed was read from: the files a feed names are fetched only where it may send Almanac.
        let feedReach = FeedReach()
        let (weatherService, feeds, olderPages) = try Self.makeSources(options, store: store, clock: clock, feedReads: feedReads,
                                                                       feedReach: feedReach, logger: logger)
        self.weatherService = weatherService
        podcastService = PodcastService(fetcher: feeds)
        weatherService.dataSource = weather
        weatherService.delegate = weather
        podcastService.dataSource = podcasts
        podcastService.delegate = podcasts

        let made = try Self.makeDownloads(options, podcasts: podcasts, machine: machine, store: store, folders: folders,
                                          clock: clock, feedReach: feedReach, logger: logger)
        let downloader = made.downloader
        downloads = made.manager

        backups = LibraryBackups(storage: try BackupFolder(folder: folders.backups, store: store, downloads: folders.data),
                                 weather: weather, podcasts: podcasts, clock: time, logger: logger.subsystem(.backups))
        server = AlmanacServer(
            connection: connection,
            weather: WeatherAdapter(weather: weather, service: weatherService, places: weatherService as? any PlaceSearching),
            podcasts: PodcastsAdapter(podcasts: podcasts, service: podcastService, olderPages: olderPages, inspector: FeedInspector(limiter: feedReads, feeds: feedReach), opml: FeedInspector(limiter: feedReads, feeds: feedReach),
                                      downloads: DownloadsExport(manager: downloads, connection: connection, logger: logger.subsystem(.downloads)),
                                      search: demo ? nil : Self.podcastSearch(options, logger: logger),
                                      chapters: demo ? nil : ChaptersFetcher(feeds: feedReach),
                                      transcripts: demo ? nil : TranscriptFetcher(feeds: feedReach)),
            version: Almanacd.version, provider: options.provider.rawValue, network: { [machine] in machine.network },
            backups: backups, logger: logger.subsystem(.bus)
        )
        notifier = DesktopNotifier(podcasts: podcasts, connection: connection, downloads: downloads,
                                   gathering: .milliseconds(Int(options.notificationGathering * 1000)),
                                   wording: { feeds in
                                       let notice = NewEpisodesNotice(feeds)
                                       return (notice.summary, notice.body)
                                   }, logger: logger.subsystem(.notifications))
        rainNotifier = RainNotifier(weather: weather, connection: connection, clock: time, logger: logger.subsystem(.notifications))
        alertNotifier = AlertNotifier(weather: weather, connection: connection, wording: { alert, place in
            let shown = AlertViewData(location: place, alert: alert, utcOffset: 0, stale: false)
            return ("\(place): \(shown.alert.headline)", shown.alert.instruction)
        }, logger: logger.subsystem(.notifications))
        let host = ProcessInfo.processInfo.hostName
        sync = PodcastSync(
            podcasts: podcasts, inspector: FeedInspector(limiter: feedReads, feeds: feedReach), archive: store,
            secrets: SessionSecrets(connection: connection, fallback: FileSyncSecrets(folder: folders.state), logger: logger.subsystem(.sync)),
            policy: SyncPolicy(interval: options.syncInterval, debounce: options.syncDebounce, firstRetry: options.syncFirstRetry,
                               defaultDevice: SyncRules.defaultDevice(hostName: host), defaultCaption: "Almanac on \(host)"),
            connect: { GpodderClient($0, clock: time) }, clock: time, logger: logger.subsystem(.sync)
        )
        syncExport = SyncExport(sync: sync, connection: connection, logger: logger.subsystem(.sync))
        transcripts = demo ? nil : TranscriptPrefetcher(podcasts: podcasts, fetcher: TranscriptFetcher(feeds: feedReach), logger: logger.subsystem(.podcasts))
        here = GeoClueLocator(weather: weather, systemBusAddress: options.systemBusAddress, logger: logger.subsystem(.geoclue))
        let players = MPRISListener(podcasts: podcasts, connection: connection, pollInterval: .milliseconds(Int(options.mprisPoll * 1000)), logger: logger.subsystem(.mpris))
        self.players = players
        steering = PlayerSteering(players: players, podcasts: podcasts, chapters: demo ? nil : ChaptersFetcher(feeds: feedReach), logger: logger.subsystem(.mpris))
        playerExport = PlayerExport(steering: steering, connection: connection, logger: logger.subsystem(.mpris))
        // What a media player has open is never deleted; when one moves on, a file it spared may go.
        let cleaner = DownloadCleaner(podcasts: podcasts, downloader: downloader, inUse: [players], clock: time, logger: logger.subsystem(.downloads))
        players.whenTracksChange { cleaner.filesInUseChanged() }
        self.cleaner = cleaner
    }

    /// The weather service and the feed reader: the demo's, or Open-Meteo and the RSS reader,
    /// which alone reads a feed's older pages.
    private static func makeSources(_ options: Almanacd, store: StateStore, clock: any WallClock, feedReads: FetchLimiter,
                                    feedReach: FeedReach, logger: Logger) throws
        -> (weather: any WeatherService, feeds: any FeedFetching, olderPages: (any OlderEpisodesFetching)?) {
        let time = clock.reading
        let demo = options.provider == .demo
        let weatherService: any WeatherService
        let feeds: any FeedFetching
        // Lists of one podcast page past the library into its feed's older pages (RFC 5005):
        // the real feed reader can, the demo cannot.
        var olderPages: (any OlderEpisodesFetching)?
        if demo {
            // Seeded from the clock unless told (a different run each time); the podcasts go on
            // from the episodes the store keeps.
            let seed = options.demoSeed ?? DemoSeed.fromClock(clock.now)
            logger.info("demo provider: almanacd --demo-seed SEED replays this run", metadata: ["seed": "\(seed)"])
            weatherService = DemoWeatherService(seed: seed, clock: time)
            let kept = try DemoFeedFetcher.catalogue.flatMap { try store.episodeIDs(of: $0.id) }
            feeds = DemoFeedFetcher(seed: seed, clock: time, continuingFrom: kept)
        } else {
            weatherService = Self.openMeteo(options, clock: time, logger: logger)
            let reader = RSSFeedFetcher(http: HTTPClient(accept: FeedInspector.accept, maximumBytes: FeedInspector.maximumBytes, validators: store),
                                        limiter: feedReads, feeds: feedReach, clock: time)
            feeds = reader
            olderPages = reader
        }
        return (weatherService, feeds, olderPages)
    }

    /// The downloader and the downloads, with the partial downloads no kept job resumes removed.
    private static func makeDownloads(_ options: Almanacd, podcasts: PodcastsDocument, machine: NetworkConditions, store: StateStore,
                                      folders: DaemonFolders, clock: any WallClock, feedReach: FeedReach, logger: Logger) throws
        -> (downloader: any EpisodeDownloading, manager: DownloadManager) {
        let demo = options.provider == .demo
        // The daemon's own downloads (auto-download) go only where the feed may send it; one a
        // client asks for goes wherever the episode is (docs/security.md).
        let downloader: any EpisodeDownloading = demo ? DemoEpisodeDownloader() : HTTPEpisodeDownloader(reach: { [podcasts] job in
            job.auto ? feedReach.limit(forFilesOf: podcasts.document.snapshot.state.podcasts[job.podcastID]?.feedURL ?? "") : nil
        })
        let downloads = try DownloadManager(
            podcasts: podcasts, downloader: downloader,
            root: folders.data.path, archive: store,
            limits: DownloadLimits(concurrent: options.downloadsAtOnce, linger: options.downloadLinger),
            diskSpace: StatvfsDiskSpace(),
            autoDownloadHold: { [machine] in machine.autoDownloadHold }, holdChanges: machine.changes.stream(), clock: clock, logger: logger.subsystem(.downloads)
        )
        // Partial downloads no kept job will resume would otherwise stay on disk unseen.
        let resumable = Set(downloads.document.snapshot.state.values.map { $0.folder + "/" + $0.temporaryName })
        for file in LeftoverDownloads.remove(under: folders.data.path, keeping: resumable) {
            logger.subsystem(.downloads).notice("removed a partial download no job resumes", metadata: ["file": "\(file)"])
        }
        return (downloader, downloads)
    }

    /// Open-Meteo at the URLs the options or the environment give, else its public ones.
    private static func openMeteo(_ options: Almanacd, clock: @escaping @Sendable () -> Date, logger: Logger) -> any WeatherService {
        let environment = ProcessInfo.processInfo.environment
        let weatherURL = options.weatherURL ?? environment["ALMANAC_WEATHER_URL"] ?? "https://api.open-meteo.com"
        let geocodingURL = options.geocodingURL ?? environment["ALMANAC_GEOCODING_URL"] ?? "https://geocoding-api.open-meteo.com"
        let airQualityURL = options.airQualityURL ?? environment["ALMANAC_AIR_QUALITY_URL"] ?? "https://air-quality-api.open-meteo.com"
        let metNorwayURL = options.metNorwayURL ?? environment["ALMANAC_MET_NORWAY_URL"] ?? "https://api.met.no"
        let nwsURL = options.nwsURL ?? environment["ALMANAC_NWS_URL"] ?? "https://api.weather.gov"
        let metalertsURL = options.metalertsURL ?? environment["ALMANAC_METALERTS_URL"] ?? "https://api.met.no"
        logger.info("where the weather comes from",
                    metadata: ["forecast": "\(weatherURL)", "metNorway": "\(metNorwayURL)", "places": "\(geocodingURL)", "airQuality": "\(airQualityURL)"])
        let meteoalarmURL = options.meteoalarmURL ?? environment["ALMANAC_METEOALARM_URL"] ?? "https://feeds.meteoalarm.org"
        logger.info("where the alerts come from", metadata: ["nws": "\(nwsURL)", "metalerts": "\(metalertsURL)", "meteoalarm": "\(meteoalarmURL)"])
        return OpenMeteoWeatherService(weatherURL: URL(string: weatherURL) ?? URL(string: "https://api.open-meteo.com")!,
                                       geocodingURL: URL(string: geocodingURL) ?? URL(string: "https://geocoding-api.open-meteo.com")!,
                                       airQualityURL: URL(string: airQualityURL),
                                       metNorway: URL(string: metNorwayURL).map { MetNorwayForecast(baseURL: $0, clock: clock) },
                                       alerts: OfficialAlerts(nwsURL: URL(string: nwsURL) ?? URL(string: "https://api.weather.gov")!,
                                                              metAlertsURL: URL(string: metalertsURL) ?? URL(string: "https://api.met.no")!,
                                                              meteoAlarmURL: URL(string: meteoalarmURL) ?? URL(string: "https://feeds.meteoalarm.org")!,
                                                              forgetAfter: 2 * options.alertsInterval, clock: clock),
                                       clock: clock)
    }

    /// The iTunes Search API at the URL the options or the environment give, else Apple's.
    private static func podcastSearch(_ options: Almanacd, logger: Logger) -> any PodcastSearching {
        let text = options.podcastSearchURL ?? ProcessInfo.processInfo.environment["ALMANAC_PODCAST_SEARCH_URL"] ?? "https://itunes.apple.com"
        logger.debug("where podcasts are searched", metadata: ["url": "\(text)"])
        return ITunesPodcastSearch(baseURL: URL(string: text) ?? URL(string: "https://itunes.apple.com")!)
    }

    /// Creates the state folder if needed and opens the store in it (a file whose schema is
    /// about to change copied to `backups` first).
    static func openStore(in folder: URL, backups: URL, clock: any WallClock, logger: Logger) throws -> StateStore {
        let logger = logger.subsystem(.store)
        if let why = PrivateFolder.create(folder.path) {
            throw DaemonError("Cannot create the state folder \(folder.path): \(why). Pass another with --state-dir.")
        }
        let store: StateStore
        do {
            store = try StateStore(folder: folder, backups: backups, logger: logger, clock: clock.reading)
        } catch {
            throw DaemonError("Cannot open the state in \(folder.path): \(error)")
        }
        // A file found unreadable and moved aside is said by `Daemon`, with the backup to restore.
        if store.openedReadOnly {
            logger.warning("the state file is read-only: changes will be refused until its folder is writable again", metadata: ["file": "\(store.path)"])
        }
        logger.debug("the state file", metadata: ["file": "\(store.path)"])
        return store
    }

    /// With the demo provider, subscribes its catalogue (once: a podcast already there is
    /// left as it is), through the podcasts owner, awaited.
    func subscribeDemoCatalogue(_ options: Almanacd) async {
        guard options.provider == .demo else { return }
        let podcasts = self.podcasts
        _ = try? await podcasts.withOwner {
            for podcast in DemoFeedFetcher.catalogue { _ = try? podcasts.subscribe(podcast) }
        }
    }
}
