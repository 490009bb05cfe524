public import AlmanacCore
import AlmanacModels
import AlmanacWire
public import DBus
import Locking
public import Logging
import Synchronization

/// The download jobs on the bus: one object per job at `/org/almanac/Almanac1/downloads/<n>`
/// with `org.almanac.Download1`, announced and withdrawn through the root's ObjectManager
/// (`InterfacesAdded`/`InterfacesRemoved`), progress as `PropertiesChanged` at the rate the
/// manager announces it.
public final class DownloadsExport: Sendable {
    public let manager: DownloadManager
    private let connection: Connection
    private let logger: Logger
    /// What each job's properties said last, to announce only what changed.
    private let announced = Locked<[UInt64: [String: Value]]>([:])
    private static let viewKey = ViewKey("almanacd:bus:downloads")

    public init(manager: DownloadManager, connection: Connection, logger: Logger) {
        self.manager = manager
        self.connection = connection
        self.logger = logger
    }

    /// Exports the jobs there are and follows the manager from now on.
    public func export() throws {
        manager.document.addView(key: Self.viewKey) { [weak self] event in
            guard let self, case .changed(_, let change, _) = event else { return }
            switch change {
            case .added(let job): exportJob(job)
            case .updated(let job): announce(job)
            case .removed(let job): unexportJob(job.id)
            }
        }
        for job in manager.document.snapshot.state.values.sorted(by: { $0.id < $1.id }) { exportJob(job) }
    }

    public func unexport() {
        manager.document.removeView(key: Self.viewKey)
        for id in announced.withLock({ Array($0.keys) }) { unexportJob(id) }
    }

    /// Queues the download of an episode for `caller` (`Download`) and exports its job before
    /// returning it, so that the job is on the bus before the caller is told its path, even
    /// while another thread is delivering the jobs' events. Refusals (`DownloadRefusal`,
    /// `SubmissionError`) name themselves.
    public func download(_ episodeID: String, for caller: BusName?) throws -> UInt64 {
        let job = try manager.download(episodeID, for: caller?.rawValue ?? "")
        exportJob(job)
        return job.id
    }

    /// The client left the bus: anyone may cancel its jobs now.
    public func ownerLeft(_ owner: BusName) {
        manager.ownerLeft(owner.rawValue)
    }

    /// Exports a job once (later calls for it do nothing); a job already removed is not
    /// exported. The job is looked up, exported and unexported under `announced`'s lock, so a
    /// removal racing an export cannot leave the object behind (nor an older state announced).
    private func exportJob(_ job: DownloadJob) {
        announced.withLock { announced in
            guard announced[job.id] == nil, let current = manager.document.snapshot.state[job.id] else { return }
            do {
                announced[job.id] = try Self.properties(of: current, manager: manager)
                try connection.export([interface(for: job.id)], at: BusContract.downloadPath(job.id))
            } catch {
                logger.error("could not export a download job", metadata: ["job": "\(job.id)", "error": "\(error)"])
            }
        }
    }

    private func announce(_ job: DownloadJob) {
        let properties: [String: Value]
        do {
            properties = try Self.properties(of: job, manager: manager)
        } catch {
            logger.error("could not encode a download job", metadata: ["job": "\(job.id)", "error": "\(error)"])
            return
        }
        let changed = announced.withLock { announced -> [(String, Value)] in
            // Not exported yet: the export tells all.
            guard let before = announced[job.id] else { return [] }
            announced[job.id] = properties
            return properties.keys.sorted().compactMap { key in before[key] == properties[key] ? nil : (key, properties[key]!) }
        }
        guard !changed.isEmpty else { return }
        try? connection.emitPropertiesChanged(path: BusContract.downloadPath(job.id), interface: BusContract.downloadInterface, values: changed)
    }

    private func unexportJob(_ id: UInt64) {
        announced.withLock { announced in
            guard announced.removeValue(forKey: id) != nil else { return }
            try? connection.unexport(BusContract.downloadPath(id))
        }
    }

    /// A job's properties; its `Error` as the manager shows it (why the daemon's own job waits).
    static func properties(of job: DownloadJob, manager: DownloadManager) throws -> [String: Value] {
        try WireCoding.fields(DownloadProperties(job, error: manager.shownError(of: job)))
    }

    private func interface(for id: UInt64) throws -> Interface {
        let manager = self.manager
        let current = { @Sendable () throws -> DownloadProperties in
            guard let job = manager.document.snapshot.state[id] else { throw BusError(.unknownObject, "Download \(id) is gone.") }
            return DownloadProperties(job, error: manager.shownError(of: job))
        }
        return try Interface(BusContract.downloadInterface.rawValue, methods: [
            // In a task: cancelling writes the job to the archive (SQLite), never on the
            // connection's thread.
            Method(BusContract.Download1.cancel, async: { call, _ in
                try manager.cancel(id, by: call.sender?.rawValue ?? "")
            }),
        ], properties: DownloadProperties.fields.map { $0.property(current) })
    }
}
