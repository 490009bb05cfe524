import AlmanacBus
import AlmanacWire
import AlmanacCore
import AlmanacServices
import DBus
import FoundationEssentials
import Glibc
import Logging

/// The daemon's lifecycle: connect, build its parts (`DaemonParts`), run them as one
/// `ServiceGroup` (the name taken once everything before it is ready: `BusPresence`), and
/// end on SIGTERM/SIGINT (the services stopped in reverse, then the name released: exit 0)
/// or when the bus goes away (exit 1, so systemd restarts it). Why our own group rather
/// than swift-service-lifecycle's: docs/decisions.md.
struct Daemon {
    let options: Almanacd
    let logger: Logger

    func run() async -> Int32 {
        do {
            return try await serve()
        } catch let error as BusError {
            logger.critical("almanacd stopped on an error", metadata: ["error": "\(error.message)", "name": "\(error.name)"])
            return 1
        } catch {
            logger.critical("almanacd stopped on an error", metadata: ["error": "\(error)"])
            return 1
        }
    }

    private func serve() async throws -> Int32 {
        // Before anything else: a SIGTERM that comes the moment the name appears (systemd
        // stopping a unit it just started, make bench's start figure) must not be lost while
        // Dispatch registers the handlers.
        let watchdog = ExitWatchdog(logger: logger)
        let endings = Ending.stream(of: [SIGTERM, SIGINT], arming: watchdog)
        let folders = DaemonFolders(stateDir: options.stateDir, dataDir: options.dataDir)
        folders.logNotes(to: logger)
        let (clock, followClock) = try DaemonClock.choose(environment: ProcessInfo.processInfo.environment, logger: logger)
        let store = try DaemonParts.openStore(in: folders.state, backups: folders.backups, clock: clock, logger: logger)
        let connection = try await connect()
        let parts = try DaemonParts(options: options, store: store, folders: folders, connection: connection, clock: clock, logger: logger)
        await parts.subscribeDemoCatalogue(options)
        if let recovered = store.recovered {
            // Said where a client looks too (`LastError`, `almanac status`), with the backup that
            // would bring the library back, until a restore or the next start. No daily backup of
            // the new, empty library meanwhile: it would push a real one out.
            let note = "\(recovered). \(parts.backups.restoreHint())"
            logger.subsystem(.store).warning("the state file could not be read; a new one was begun", metadata: ["note": "\(note)"])
            parts.backups.pauseUntilRestored(note: note)
        }
        // Its schema changed without the copy before it (a full disk): said until a backup is taken.
        if let unbacked = store.unbackedMigration { parts.backups.noteUnbackedMigration(unbacked) }

        // Started in this order, stopped in the reverse: the sync hears every local change
        // before clients can make one; the name is taken once everything a client reaches is
        // there; then the system bus (the machine watcher, "here"), which must not delay the
        // name, and the schedulers. Until the watcher's first reading the daemon's own
        // downloads wait (`NetworkConditions`), so a metered connection still holds back those
        // kept from last time. Stopping: the schedulers, "here", the watcher, the notifier, the
        // players, the sync, the cleanup, the transfers (their temporary files stay, so the
        // next start resumes them) — within `ServiceGroup.stopDeadline` in all.
        let schedulers = Self.schedulers(parts)
        let clockFollower = followClock.map { $0 { Self.workUnderWay(parts, schedulers) } }
        let services = ServiceGroup((clockFollower.map { [$0] } ?? []) + [parts.machine, parts.downloads, parts.cleaner, parts.sync, parts.players, parts.steering, parts.notifier, parts.alertNotifier,
                                     parts.rainNotifier] as [any Service]
                                    + (parts.transcripts.map { [$0] } ?? [])  // before clients can queue anything
                                    + [BusPresence(parts: parts, connection: connection, provider: options.provider.rawValue, logger: logger)]
                                    // The system bus only once the name is taken: it may be slow or silent.
                                    + [parts.machineWatcher, parts.here] as [any Service]
                                    + schedulers,
                                    logger: logger)
        watchdog.watch(services)
        let ending = await withTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                do {
                    try await services.run()
                    endings.continuation.yield(.servicesEnded(nil))
                } catch {
                    endings.continuation.yield(.servicesEnded(error))
                }
            }
            // From the first moment, not once every part is ready: a stop while one gets
            // ready is heeded as well (the one getting ready is cancelled).
            let ending = await Ending.first(of: endings, orDisconnectionOf: connection)
            services.shutdown()
            await tasks.waitForAll()
            return ending
        }
        return await end(ending, parts: parts, connection: connection)
    }

    /// After the services: releases the name (waiting at most `releaseTimeout` for the bus's
    /// answer: the exit must not wait on a busy bus), unexports and closes; the exit status.
    private func end(_ ending: Ending, parts: DaemonParts, connection: Connection) async -> Int32 {
        switch ending {
        case .signal(let number):
            logger.info("received a signal: releasing the bus name and exiting", metadata: ["signal": "\(number)", "name": "\(BusContract.serviceName)"])
            _ = try? await connection.releaseName(BusContract.serviceName, timeout: Self.releaseTimeout)
            parts.syncExport.unexport()
            parts.playerExport.unexport()
            parts.server.unexport()
            await connection.close()
            return 0
        case .disconnected:
            logger.error("lost the connection to the bus; exiting so that the service manager can restart almanacd")
            return 1
        case .servicesEnded(let error as DaemonError) where error.reported:
            await connection.close()
            return 1
        case .servicesEnded(let why):
            logger.error("a part of almanacd ended; exiting so that the service manager can restart it", metadata: why.map { ["error": "\($0)"] })
            _ = try? await connection.releaseName(BusContract.serviceName, timeout: Self.releaseTimeout)
            await connection.close()
            return 1
        }
    }

    /// How long the bus gets to answer `ReleaseName` on the way out (it answers in
    /// microseconds; a bus that does not is about to lose us anyway).
    static let releaseTimeout: Duration = .milliseconds(500)

    /// On a simulated clock, what the test waits for before it moves the clock again (its
    /// report's `busy`): schedulers not at rest, the downloads' work, refreshes the bus asked
    /// for, and changes still on their way to the documents' views (whose handlers may start work).
    private static func workUnderWay(_ parts: DaemonParts, _ schedulers: [RefreshScheduler]) -> Int {
        schedulers.count { !$0.isAtRest } + parts.downloads.workUnderWay
            + parts.server.weather.refreshesUnderWay + parts.server.podcasts.refreshesUnderWay
            + [parts.weather.document.isDelivering, parts.podcasts.document.isDelivering, parts.downloads.document.isDelivering].count { $0 }
    }

    /// The bus given with `--address`, else the one that started us by D-Bus activation,
    /// else the session bus.
    private func connect() async throws -> Connection {
        let starter = ProcessInfo.processInfo.environment["DBUS_STARTER_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        if let address = options.address ?? starter { return try await Connection.connect(to: address) }
        return try await Connection.session()
    }

    /// One `RefreshScheduler` per schedule: each sleeps until its next due time and then
    /// fires (not awaited: a stalled fetch must not hold up what falls due meanwhile; what is
    /// being fetched is claimed, so it is not fetched twice), and is woken when its schedule
    /// changes; each listens from now, before the first refresh, so that no change is
    /// missed. No tick: idle, the daemon sleeps. Views whose owner left are removed by the
    /// departure stream (`AlmanacServer.export`), so no periodic sweep is needed either.
    private static func schedulers(_ parts: DaemonParts) -> [RefreshScheduler] {
        let (weather, podcasts, sync, cleaner, machine, server, clock) = (parts.weather, parts.podcasts, parts.sync, parts.cleaner, parts.machine, parts.server, parts.clock)
        let backups = parts.backups
        let (weatherService, podcastService) = (parts.weatherService, parts.podcastService)
        return [
            RefreshScheduler(nextDue: { weather.nextDue }, changes: weather.scheduleChanges.stream(), on: clock) { await weatherService.refresh(nil) },
            // On a metered connection (`metered pause`) at most hourly (`NetworkConditions`).
            RefreshScheduler(nextDue: { machine.feedsNextDue(podcasts.nextDue) }, changes: podcasts.scheduleChanges.stream(), on: clock) {
                machine.scheduledFeedRead()
                await podcastService.refresh()
            },
            // After a resume or when the network comes back: every wanted feed at once, as
            // `Refresh()` does (not when a metered connection had its hour's read), and every
            // wanted place not fetched since the machine went away, by the weather's scheduler.
            RefreshScheduler(nextDue: { machine.catchUpDue }, changes: machine.changes.stream(), on: clock) {
                let (weatherDue, feedsDue, since) = machine.takeCatchUp()
                if weatherDue { weather.catchUp(since: since) }
                if feedsDue { await server.podcasts.refresh(.everything) }
            },
            // The sync: soon after a change here, on its interval, and after a failure's backoff.
            RefreshScheduler(nextDue: { sync.nextDue }, changes: sync.scheduleChanges.stream(), on: clock) { _ = try? await sync.sync() },
            // Downloads' cleanup: after the changes that may make a file go, and when the next
            // played file's time is up (an hour at most while a player holds one); else asleep.
            RefreshScheduler(nextDue: { cleaner.nextDue }, changes: cleaner.scheduleChanges.stream(), on: clock) { await cleaner.clean() },
            // The library's daily backup: a day after the newest (at once when that is older).
            RefreshScheduler(nextDue: { backups.nextDue }, changes: backups.scheduleChanges.stream(), on: clock) { await backups.daily() },
        ]
    }
}
