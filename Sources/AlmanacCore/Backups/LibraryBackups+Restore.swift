import Dispatch
public import AlmanacModels
import FoundationEssentials
import Locking
import Logging

extension LibraryBackups {
    /// What `restore` did: the backup restored, and the backup of the library it replaced.
    public struct Restored: Sendable {
        public let restored: LibraryBackup
        public let kept: LibraryBackup
    }

    /// Restores the backup `given` names — `latest`, a backup's name, or its path in the
    /// backups folder — without a restart: the library it replaces is kept as a backup of its
    /// own first (`before-restore`), both documents' owners stop taking writes while the live
    /// library becomes the backup's, each document reads it, and every view hears the whole
    /// state. A file outside the folder is refused (`invalidName`): `importBackup` brings one in.
    public func restore(_ given: String) async throws -> Restored {
        try await gate.withGate {
            let name = try await blocking { [storage] in try Self.backupName(given, among: storage.backups(), folder: storage.folder) }
            try await blocking { [storage] in try storage.requireRoom(toRestore: name) }
            let prepared = try await blocking { [storage] in try storage.prepare(named: name) }
            defer { storage.discard(prepared) }
            let kept = try await throughOwners { [storage, clock] in
                guard let kept = try storage.restore(prepared, keepingCurrentAs: BackupName.beforeRestore, at: clock()) else {
                    throw BackupError(.failed, "The library in use could not be kept before the restore; nothing was changed.")
                }
                return kept
            } undo: { [storage, clock] kept in
                let previous = try storage.prepare(named: kept.name)
                defer { storage.discard(previous) }
                _ = try storage.restore(previous, keepingCurrentAs: nil, at: clock())
            }
            schedule.withLock { schedule in
                schedule.paused = false
                // A damaged file's note is answered: the library is one the user chose.
                schedule.damaged = nil
            }
            showNotes()
            logger.notice("restored the library from a backup", metadata: ["backup": "\(prepared.backup.path)", "replaced library kept as": "\(kept.path)"])
            await prune(sparing: [kept.name, prepared.backup.name])
            return Restored(restored: prepared.backup, kept: kept)
        }
    }

    /// Copies a file the caller opened (`almanac restore FILE`: a backup from another machine)
    /// into the backups folder as a backup of its own, once it is checked to be a library this
    /// daemon can restore; the daemon never opens a path a client names outside its folder.
    public func importBackup(descriptor: Int32) async throws -> LibraryBackup {
        try await gate.withGate {
            let imported = try await blocking { [storage, clock] in try storage.importBackup(from: descriptor, at: clock()) }
            logger.info("imported a backup of the library", metadata: ["backup": "\(imported.path)"])
            await prune(sparing: [imported.name])
            return imported
        }
    }

    /// The file name `given` means: the newest backup's for `latest`; else a backup's name, or
    /// its path in `folder`. Refuses other forms (`invalidName`) and `latest` with no backup
    /// (`noBackup`); whether the named file is there is the storage's to say.
    static func backupName(_ given: String, among backups: [LibraryBackup], folder: String) throws -> String {
        if given == "latest" {
            guard let newest = backups.min(by: LibraryBackup.newestFirst) else {
                throw BackupError(.noBackup, "There is no backup in \(folder) yet: take one with Backup (`almanac backup now`).")
            }
            return newest.name
        }
        let shown = given.utf8.count > 300 ? String(given.prefix(300)) + "…" : given
        guard !given.isEmpty, given.utf8.count <= 4096, !given.hasControlCharacters else {
            throw BackupError(.invalidName, "Name a backup: 'latest', a name ListBackups gives, or its path in \(folder); not '\(shown)'.")
        }
        var name = Substring(given)
        if let slash = given.lastIndex(of: "/") {
            let parent = given[..<slash]
            name = given[given.index(after: slash)...]
            guard parent == Substring(folder) else {
                throw BackupError(.invalidName, "'\(shown)' is not in the backups folder \(folder): only its backups are restored by name. "
                                  + "Import another file first (ImportBackup; `almanac restore FILE` does it).")
            }
        }
        guard BackupName.parse(String(name)) != nil else {
            throw BackupError(.invalidName, "'\(shown)' is not a backup's name (almanac-YYYYMMDD-HHMMSS-REASON.sqlite); ListBackups lists them, or say 'latest'.")
        }
        return String(name)
    }

    /// Runs `replace` with both documents' owners held — no burst between — and then has each
    /// document read the library as it now is, before either owner takes anything else: on the
    /// podcasts document's owner, while the weather document's owner is held waiting (so
    /// nothing else reaches the weather document's state meanwhile either). When a document
    /// cannot read the new library, `undo` puts the one it replaced back and the failure is thrown.
    func throughOwners(_ replace: @escaping @Sendable () throws -> LibraryBackup,
                       undo: @escaping @Sendable (LibraryBackup) throws -> Void) async throws -> LibraryBackup {
        let (weather, podcasts) = (self.weather, self.podcasts)
        let weatherHeld = DispatchSemaphore(value: 0)
        let weatherGo = DispatchSemaphore(value: 0)
        let weatherDone = Task {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                weather.onOwner {
                    weatherHeld.signal()
                    weatherGo.wait()
                    continuation.resume()
                }
            }
        }
        do {
            let kept = try await podcasts.withOwner {
                weatherHeld.wait()
                defer { weatherGo.signal() }
                let kept = try replace()
                let read: (weather: WeatherState?, podcasts: PodcastsDocument.Kept)
                do {
                    read = (try weather.keptState(), try podcasts.keptState())
                } catch {
                    try? undo(kept)
                    throw error
                }
                podcasts.restored(read.podcasts)
                if let kept = read.weather { weather.restored(kept) }
                return kept
            }
            await weatherDone.value
            return kept
        } catch {
            await weatherDone.value
            throw error
        }
    }
}
