import AlmanacBus
import AlmanacCore
import AlmanacServices
import AlmanacViews
import DBus
import Dispatch
import Foundation
import Logging

/// The daemon's lifecycle: connect, export, take the name when ready, poll, and end on
/// SIGTERM/SIGINT (release the name, exit 0) or when the bus goes away (exit 1, so systemd
/// restarts it).
struct Daemon {
    let options: Almanacd
    let logger: Logger

    func run() async -> Int32 {
        do {
            return try await serve()
        } catch let error as BusError {
            logger.critical("\(error.message) (\(error.name))")
            return 1
        } catch {
            logger.critical("\(error)")
            return 1
        }
    }

    private func serve() async throws -> Int32 {
        // Before anything else: a SIGTERM that comes the moment the name appears (systemd
        // stopping a unit it just started, make bench's start figure) must not be lost while
        // Dispatch registers the handlers.
        let endings = Self.endings(signals: [SIGTERM, SIGINT])
        let store = try openStore()
        // Started by D-Bus activation, the bus that started us says where it is.
        let starter = ProcessInfo.processInfo.environment["DBUS_STARTER_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        let connection = if let address = options.address ?? starter {
            try await Connection.connect(to: address)
        } else {
            try await Connection.session()
        }

        let log = logger
        // A week-old reading is no longer worth serving as "last known".
        try? store.pruneReadings(olderThan: Date().addingTimeInterval(-7 * 86_400))
        let weather = WeatherDocument(
            store.weatherState(), policy: RefreshSchedule.Policy(interval: options.effectiveWeatherInterval),
            archive: store, onArchiveFailure: { log.error("\($0)") }
        )
        let podcasts = PodcastsDocument(
            archive: store,
            policy: RefreshSchedule.Policy(interval: options.effectivePodcastInterval, firstRetry: 60, longestRetry: 86_400),
            onArchiveFailure: { log.error("\($0)") }
        )
        let weatherService = makeWeatherService()
        let podcastService: any PodcastService = options.provider == .demo ? DemoPodcastService() : RSSPodcastService()
        weatherService.dataSource = weather
        weatherService.delegate = weather
        podcastService.dataSource = podcasts
        podcastService.delegate = podcasts
        if options.provider == .demo {
            for podcast in DemoPodcastService.catalogue { _ = try? podcasts.subscribe(podcast) }
        }

        let downloader: any EpisodeDownloading = options.provider == .demo ? DemoEpisodeDownloader() : HTTPEpisodeDownloader()
        let downloads = DownloadManager(
            podcasts: podcasts, downloader: downloader, root: dataFolder().path, archive: store,
            limits: DownloadLimits(concurrent: options.downloadsAtOnce, linger: options.downloadLinger),
            log: { log.error("\($0)") }
        )
        // Partial downloads no kept job will resume would otherwise stay on disk unseen.
        let resumable = Set(downloads.document.snapshot.state.values.map { $0.folder + "/" + $0.temporaryName })
        for file in LeftoverDownloads.remove(under: dataFolder().path, keeping: resumable) {
            log.notice("removed the partial download \(file), which no job resumes")
        }

        let server = AlmanacServer(
            connection: connection,
            weather: WeatherAdapter(weather: weather, service: weatherService),
            podcasts: PodcastsAdapter(podcasts: podcasts, service: podcastService, inspector: FeedInspector(), opml: FeedInspector(),
                                      downloads: downloads),
            version: Almanacd.version, provider: options.provider.rawValue,
            log: { log.debug("\($0)") }
        )
        try await server.export()
        downloads.start()
        let notifier = DesktopNotifier(podcasts: podcasts, connection: connection, downloads: downloads,
                                       gathering: .milliseconds(Int(options.notificationGathering * 1000)),
                                       wording: { feeds, markup in
                                           let notice = NewEpisodesNotice(feeds, markup: markup)
                                           return (notice.summary, notice.body)
                                       }, log: { log.warning("\($0)") })
        try await notifier.start()
        let players = MPRISListener(podcasts: podcasts, connection: connection,
                                    pollInterval: .milliseconds(Int(options.mprisPoll * 1000)), log: { log.warning("\($0)") })
        try await players.start()

        // The name is taken last: when clients see it, everything is there — a stop too.
        await Self.awaitHandlers([SIGTERM, SIGINT])
        switch try await connection.requestName(BusContract.serviceName, flags: .doNotQueue) {
        case .primaryOwner, .alreadyOwner:
            logger.info("almanacd \(Almanacd.version) owns \(BusContract.serviceName) as \(connection.uniqueName?.rawValue ?? "?") (provider: \(options.provider.rawValue))")
        case .exists, .inQueue:
            logger.error("Another almanacd already owns \(BusContract.serviceName) on this bus; stop it first (systemctl --user stop almanacd).")
            await connection.close()
            return 1
        }

        let polling = Task {
            await withTaskGroup(of: Void.self) { group in
                // Not awaited before the loops: a stalled first fetch must not hold them up.
                group.addTask { await server.refreshAll() }
                // Each place has its own due time (cadence, backoff); the tick only asks what is due.
                let tick = min(1, max(0.05, options.effectiveWeatherInterval / 4))
                // Not awaited: a stalled fetch must not hold up the next tick (what is being
                // fetched is claimed, so the next tick does not fetch it again).
                group.addTask { await Self.every(tick) { Task { await server.weather.refresh(.due) } } }
                let podcastTick = min(30, max(0.05, options.effectivePodcastInterval / 4))
                group.addTask { await Self.every(podcastTick) { Task { await server.podcasts.refresh(.due) } } }
                // A safety net behind the departure stream: views whose owner left are removed within a minute.
                group.addTask { await Self.every(60) { await server.sweep() } }
            }
        }

        let ending = await Self.first(of: endings, orDisconnectionOf: connection)
        polling.cancel()
        notifier.stop()
        players.stop()
        // Transfers stop where they are; their temporary files let the next start resume them.
        downloads.stop()
        switch ending {
        case .signal(let number):
            logger.info("received signal \(number); releasing \(BusContract.serviceName) and exiting")
            _ = try? await connection.releaseName(BusContract.serviceName)
            server.unexport()
            await connection.close()
            return 0
        case .disconnected:
            logger.error("lost the connection to the bus; exiting so that the service manager can restart almanacd")
            return 1
        }
    }

    private func makeWeatherService() -> any WeatherService {
        switch options.provider {
        case .demo:
            return DemoWeatherService()
        case .real:
            let environment = ProcessInfo.processInfo.environment
            let weatherURL = options.weatherURL ?? environment["ALMANAC_WEATHER_URL"] ?? "https://api.open-meteo.com"
            let geocodingURL = options.geocodingURL ?? environment["ALMANAC_GEOCODING_URL"] ?? "https://geocoding-api.open-meteo.com"
            logger.info("weather from \(weatherURL), places from \(geocodingURL)")
            return OpenMeteoWeatherService(weatherURL: URL(string: weatherURL) ?? URL(string: "https://api.open-meteo.com")!,
                                           geocodingURL: URL(string: geocodingURL) ?? URL(string: "https://geocoding-api.open-meteo.com")!)
        }
    }

    /// Creates the state folder if needed and opens the store in it.
    private func openStore() throws -> StateStore {
        let folder = options.stateDir.map { URL(fileURLWithPath: $0) } ?? Self.defaultStateFolder()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw BusError(.failed, "Cannot create the state folder \(folder.path): \(error.localizedDescription). Pass another with --state-dir.")
        }
        let store: StateStore
        do {
            // A refused write fails the call that asked for it; the log says so too.
            let log = logger
            store = try StateStore(folder: folder, onWriteFailure: { log.error("\($0)") })
        } catch {
            throw BusError(.failed, "\(error)")
        }
        if let recovered = store.recovered { logger.warning("\(recovered)") }
        if store.openedReadOnly {
            logger.warning("The state file \(store.path) is read-only: changes will be refused until its folder is writable again.")
        }
        logger.debug("state: \(store.path)")
        return store
    }

    /// Where downloads go: --data-dir, else $XDG_DATA_HOME/almanac.
    private func dataFolder() -> URL {
        if let dataDir = options.dataDir { return URL(fileURLWithPath: dataDir) }
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return URL(fileURLWithPath: base).appendingPathComponent("almanac")
    }

    static func defaultStateFolder() -> URL {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.local/state")
        return URL(fileURLWithPath: base).appendingPathComponent("almanac")
    }

    static func every(_ seconds: Double, _ work: @Sendable () async -> Void) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: .milliseconds(Int(seconds * 1000))) } catch { return }
            await work()
        }
    }

    enum Ending: Sendable {
        case signal(Int32)
        case disconnected
    }

    /// `signals` as they come, from now on. Not `SIG_IGN` first: Dispatch installs its own
    /// handler, but on its manager thread, a moment later — a signal ignored in between was
    /// lost for good (1 start in 30–70 under make bench's start figure hung until SIGKILL;
    /// caught with gdb: SIGTERM caught, nothing pending, nothing awaiting it). Until the
    /// handler is there the default action ends the process, and `awaitHandlers` holds the
    /// name back until it is.
    static func endings(signals: [Int32]) -> (stream: AsyncStream<Ending>, continuation: AsyncStream<Ending>.Continuation) {
        let (stream, continuation) = AsyncStream.makeStream(of: Ending.self)
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(.signal(number)) }
            source.resume()
            sources.append(source)
        }
        nonisolated(unsafe) let kept = sources
        continuation.onTermination = { _ in kept.forEach { $0.cancel() } }
        return (stream, continuation)
    }

    /// Waits (two seconds at most) until a handler, not the default action, is installed for
    /// each of `signals`: Dispatch does it on another thread after `endings`.
    static func awaitHandlers(_ signals: [Int32]) async {
        let giveUp = ContinuousClock.now + .seconds(2)
        for number in signals {
            while ContinuousClock.now < giveUp {
                var action = sigaction()
                sigaction(number, nil, &action)
                if unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) > 1 { break }  // not SIG_DFL, SIG_IGN
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    /// Waits for one of the `endings` signals or for the connection to drop, whichever comes first.
    static func first(of endings: (stream: AsyncStream<Ending>, continuation: AsyncStream<Ending>.Continuation),
                      orDisconnectionOf connection: Connection) async -> Ending {
        let watcher = Task {
            await connection.waitUntilDisconnected()
            endings.continuation.yield(.disconnected)
        }
        defer {
            watcher.cancel()
            endings.continuation.finish()
        }
        for await ending in endings.stream { return ending }
        return .disconnected
    }
}
