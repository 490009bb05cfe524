import AlmanacCore
import Dispatch
import Glibc
import Locking
import Logging
import Synchronization

/// The last resort of a stop: armed by the signal that asks the daemon to stop, it ends the
/// process `limit` later if the daemon has not ended by then, saying which services were
/// still running. The service group's own deadline (`ServiceGroup.stopDeadline`) is the
/// ordinary way out, with the bus name released; this is for when even that cannot run —
/// every thread of Swift's pool held by work that never yields. So it waits on a Dispatch
/// queue of its own (which always gets a thread), not in a task, and is armed from the
/// signal's handler on that queue.
final class ExitWatchdog: Sendable {
    /// From the signal to the end of the process, at the latest: the group's three seconds,
    /// then a second for releasing the name and closing the connection; within the five
    /// seconds docs/daemon.md promises.
    static let limit: Duration = .seconds(4)

    let queue = DispatchQueue(label: "almanacd.exit-watchdog")
    private let armed = Atomic<Bool>(false)
    private let logger: Logger
    /// Names the services still running (the group's, once there is one).
    private let group = Locked<ServiceGroup?>(nil)

    init(logger: Logger) {
        self.logger = logger
    }

    /// Where to read the services still running when the time is up.
    func watch(_ group: ServiceGroup) {
        self.group.withLock { $0 = group }
    }

    /// Starts the countdown (once; later calls do nothing).
    func arm() {
        guard !armed.exchange(true, ordering: .relaxed) else { return }
        RealTime.after(Self.limit, on: queue) { [self] in
            let names = group.withLock { $0 }?.running ?? []
            logger.error("almanacd did not end within the time a stop has; ending now",
                         metadata: ["services": "\(names.joined(separator: ","))", "limit": "\(Self.limit)"])
            exit(0)
        }
    }
}
