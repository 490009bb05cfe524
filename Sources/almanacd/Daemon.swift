import AlmanacBus
import AlmanacCore
import DBus
import Foundation
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
        let store = try DaemonParts.openStore(in: folders.state, logger: logger)
        let connection = try await connect()
        let parts = DaemonParts(options: options, store: store, folders: folders, connection: connection, logger: logger)

        try await parts.server.export()
        parts.downloads.start()
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

        let polling = Task { await poll(parts.server) }
        let ending = await Ending.first(of: endings, orDisconnectionOf: connection)
        polling.cancel()
        parts.notifier.stop()
        parts.players.stop()
        // Transfers stop where they are; their temporary files let the next start resume them.
        parts.downloads.stop()
        switch ending {
        case .signal(let number):
            logger.info("received signal \(number); releasing \(BusContract.serviceName) and exiting")
            _ = try? await connection.releaseName(BusContract.serviceName)
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

    /// Refreshes everything once, then asks each document what is due on a tick, and sweeps
    /// views whose owner left; until cancelled.
    private func poll(_ server: AlmanacServer) async {
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

    private static func every(_ seconds: Double, _ work: @Sendable () async -> Void) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: .milliseconds(Int(seconds * 1000))) } catch { return }
            await work()
        }
    }
}
