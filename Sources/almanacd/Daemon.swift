import AlmanacBus
import AlmanacWire
import AlmanacCore
import AlmanacServices
import DBus
import FoundationEssentials
import Glibc
import Logging

/// The daemon's lifecycle: connect, build its parts (`DaemonParts`), export, take the name
/// when ready, poll, and end on SIGTERM/SIGINT (release the name, exit 0) or when the bus
/// goes away (exit 1, so systemd restarts it). Why not swift-service-lifecycle's
/// `ServiceGroup`: docs/decisions.md.
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
        let endings = Ending.stream(of: [SIGTERM, SIGINT])
        let folders = DaemonFolders(stateDir: options.stateDir, dataDir: options.dataDir)
        let notes = folders.notes()
        for note in notes.differences { logger.notice("\(note)") }
        for problem in notes.problems { logger.warning("\(problem)") }
        let store = try DaemonParts.openStore(in: folders.state, logger: logger)
        let connection = try await connect()
        let parts = try DaemonParts(options: options, store: store, folders: folders, connection: connection, logger: logger)
        if let recovered = store.recovered {
            // Said where a client looks too (`LastError`, `almanac status`), until the next start.
            parts.weather.activity.standing(recovered)
            parts.podcasts.activity.standing(recovered)
        }

        // Before clients can change anything: every local change is heard by the sync.
        parts.sync.start()
        try await parts.server.export()
        try parts.syncExport.export()
        parts.downloads.start()
        parts.cleaner.start()
        try await parts.notifier.start()
        try await parts.players.start()

        // The name is taken last: when clients see it, everything is there — a stop too.
        await Ending.awaitHandlers([SIGTERM, SIGINT])
        switch try await connection.requestName(BusContract.serviceName, flags: .doNotQueue) {
        case .primaryOwner, .alreadyOwner:
            logger.info("almanacd \(Almanacd.version) owns \(BusContract.serviceName) as \(connection.uniqueName?.rawValue ?? "?") (provider: \(options.provider.rawValue))")
        case .exists, .inQueue:
            logger.error("Another almanacd already owns \(BusContract.serviceName) on this bus; stop it first (systemctl --user stop almanacd).")
            await connection.close()
            return 1
        }

        let polling = Task { await schedule(parts) }
        let ending = await Ending.first(of: endings, orDisconnectionOf: connection)
        polling.cancel()
        parts.notifier.stop()
        parts.players.stop()
        parts.here.stop()
        parts.sync.stop()
        parts.cleaner.stop()
        // Transfers stop where they are; their temporary files let the next start resume them.
        parts.downloads.stop()
        switch ending {
        case .signal(let number):
            logger.info("received signal \(number); releasing \(BusContract.serviceName) and exiting")
            _ = try? await connection.releaseName(BusContract.serviceName)
            parts.syncExport.unexport()
            parts.server.unexport()
            await connection.close()
            return 0
        case .disconnected:
            logger.error("lost the connection to the bus; exiting so that the service manager can restart almanacd")
            return 1
        }
    }

    /// The bus given with `--address`, else the one that started us by D-Bus activation,
    /// else the session bus.
    private func connect() async throws -> Connection {
        let starter = ProcessInfo.processInfo.environment["DBUS_STARTER_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        if let address = options.address ?? starter { return try await Connection.connect(to: address) }
        return try await Connection.session()
    }

    /// Refreshes everything once, then runs one `RefreshScheduler` per document: each sleeps
    /// until its document's next due time and then tells the service to refresh, which asks
    /// the document (its data source) what is due. The documents wake their scheduler when
    /// their schedule changes. No tick: idle, the daemon sleeps. Views whose owner left are
    /// removed by the departure stream (`AlmanacServer.export`), which checks them all
    /// against the bus should it ever overflow, so no periodic sweep is needed either.
    private func schedule(_ parts: DaemonParts) async {
        let server = parts.server
        let weather = parts.weather
        let podcasts = parts.podcasts
        let weatherService = parts.weatherService
        let podcastService = parts.podcastService
        // Not awaited: a stalled fetch must not hold up what falls due meanwhile (what is being
        // fetched is claimed, so it is not fetched twice).
        let weatherScheduler = RefreshScheduler(nextDue: { weather.nextDue }) { Task { await weatherService.refresh(nil) } }
        let podcastScheduler = RefreshScheduler(nextDue: { podcasts.nextDue }) { Task { await podcastService.refresh() } }
        let here = parts.here
        // The sync: soon after a change here, on its interval, and after a failure's backoff.
        let sync = parts.sync
        let syncScheduler = RefreshScheduler(nextDue: { sync.nextDue }) { Task { _ = try? await sync.sync() } }
        // Downloads' cleanup: after the changes that may make a file go, and when the next
        // played file's time is up (an hour at most while a player holds one); else asleep.
        let cleaner = parts.cleaner
        let cleanupScheduler = RefreshScheduler(nextDue: { cleaner.nextDue }) { Task { cleaner.clean() } }
        // Each scheduler listens to its schedule's changes (and the locator of "here" to the
        // weather's), from before the first refresh, so that none is missed.
        let wakings: [(changes: AsyncStream<Void>, wake: @Sendable () -> Void)] = [
            (weather.scheduleChanges.stream(), { weatherScheduler.wake() }),
            (weather.scheduleChanges.stream(), { here.wantedChanged() }),
            (podcasts.scheduleChanges.stream(), { podcastScheduler.wake() }),
            (sync.scheduleChanges.stream(), { syncScheduler.wake() }),
            (cleaner.scheduleChanges.stream(), { cleanupScheduler.wake() }),
        ]
        await withTaskGroup(of: Void.self) { group in
            for (changes, wake) in wakings {
                group.addTask { for await _ in changes { wake() } }
            }
            // Not awaited before the schedulers: a stalled first fetch must not hold them up.
            group.addTask { await server.refreshAll() }
            group.addTask { await weatherScheduler.run() }
            group.addTask { await podcastScheduler.run() }
            group.addTask { await syncScheduler.run() }
            group.addTask { await cleanupScheduler.run() }
        }
    }
}
