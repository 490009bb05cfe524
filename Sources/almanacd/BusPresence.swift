import AlmanacBus
import AlmanacCore
import AlmanacWire
import DBus
import Glibc
import Logging

/// The daemon on the bus, as one service of its group, after every part a client can reach
/// and before the schedulers: made ready by exporting the objects and then taking the name
/// (once the signal handlers are in, so that a stop sent as the name appears is not lost);
/// it runs the first refresh of both documents, then waits. Releasing the name and
/// unexporting are `Daemon.serve`'s, after every service has stopped.
struct BusPresence: Service {
    let parts: DaemonParts
    let connection: Connection
    let provider: String
    let logger: Logger

    func prepare() async throws {
        try await parts.server.export()
        try parts.syncExport.export()
        try parts.playerExport.export()
        // The name is taken last: when clients see it, everything is there — a stop too.
        await Ending.awaitHandlers([SIGTERM, SIGINT])
        switch try await connection.requestName(BusContract.serviceName, flags: .doNotQueue) {
        case .primaryOwner, .alreadyOwner:
            logger.info("almanacd owns its name on the bus", metadata: ["version": "\(Almanacd.version)", "name": "\(BusContract.serviceName)",
                                                                   "as": "\(connection.uniqueName?.rawValue ?? "?")", "provider": "\(provider)"])
        case .exists, .inQueue:
            logger.error("Another almanacd already owns the name on this bus; stop it first (systemctl --user stop almanacd).", metadata: ["name": "\(BusContract.serviceName)"])
            throw DaemonError("Another almanacd owns \(BusContract.serviceName).", reported: true)
        }
    }

    /// Refreshes both documents once (every place, every feed that is due), then waits.
    func run() async {
        await parts.server.refreshAll()
        await Task.untilCancelled()
    }
}
