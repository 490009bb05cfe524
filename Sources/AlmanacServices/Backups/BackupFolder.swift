public import AlmanacCore
public import AlmanacModels
public import FoundationEssentials
import Glibc

/// The daemon's `BackupStorage`: the backups folder (`$XDG_STATE_HOME/almanac/backups`, mode
/// 0700, each backup 0600 from its creation) beside the state file it copies and restores
/// (`StateStore+Backup.swift`). Only regular files named as `BackupName` names them are
/// backups; anything else there is never listed, restored or deleted. Names a client gives are
/// file names in the folder, opened without following links.
public final class BackupFolder: BackupStorage {
    public let folder: String
    private let store: StateStore
    /// Where downloads are: a restored library keeps only downloads found here.
    private let downloadsRoot: String
    /// The most bytes a file passed to `importBackup` may hold.
    public static let maximumImportBytes: UInt64 = 4 << 30
    /// What a copy being prepared for a restore is called (never a backup's name).
    private static let candidatePrefix = ".restoring-"

    /// Creates the folder when it is missing, and removes copies a restore left when the
    /// daemon stopped in its middle. Throws `BackupError` when the folder cannot be made.
    public init(folder: URL, store: StateStore, downloads: URL) throws {
        self.folder = folder.standardizedFileURL.path
        self.store = store
        downloadsRoot = downloads.standardizedFileURL.path
        if let why = PrivateFolder.create(self.folder) {
            throw BackupError(.failed, "Cannot create the backups folder \(self.folder): \(why).")
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: self.folder)) ?? [] where name.hasPrefix(Self.candidatePrefix) {
            StateStore.removeDatabaseFile(self.folder + "/" + name)
        }
    }

    public func backups() throws -> [LibraryBackup] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder)
        } catch {
            throw BackupError(.failed, "Cannot list the backups folder \(folder): \(error).")
        }
        return names.compactMap(backup(named:))
    }

    /// The backup `name` names in the folder: a regular file there (not a link) with a backup's name.
    private func backup(named name: String) -> LibraryBackup? {
        guard let (takenAt, reason, copy) = BackupName.parse(name) else { return nil }
        var status = stat()
        let path = folder + "/" + name
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return LibraryBackup(name: name, path: path, takenAt: takenAt, bytes: UInt64(max(0, status.st_size)), reason: reason, copy: copy)
    }

    public func backUp(reason: String, at date: Date) throws -> LibraryBackup {
        try BackupRoom.require(try liveBytes(), in: folder, for: "a backup of the library")
        let path = Self.freePath(in: folder, reason: reason, at: date)
        do {
            try store.backUp(to: path)
        } catch {
            throw BackupError(.failed, "\(error)")
        }
        return try made(path)
    }

    public func delete(_ backup: LibraryBackup) throws {
        guard unlink(folder + "/" + backup.name) == 0 || errno == ENOENT else {
            throw BackupError(.failed, "Cannot delete \(backup.path): \(String(cString: strerror(errno))).")
        }
    }

    public func prepare(named name: String) throws -> PreparedLibrary {
        let path = folder + "/" + name
        // Not blocking: a FIFO planted under a backup's name would wait for a writer for ever.
        let source = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard source >= 0 else {
            switch errno {
            case ENOENT: throw BackupError(.noBackup, "There is no backup named \(name) in \(folder); ListBackups (`almanac backup list`) lists them.")
            case ELOOP: throw BackupError(.unusable, "\(path) is a symbolic link; only the backups the folder itself holds are restored.")
            default: throw BackupError(.failed, "Cannot open \(path): \(String(cString: strerror(errno))).")
            }
        }
        defer { close(source) }
        let candidate = folder + "/" + Self.candidatePrefix + name
        StateStore.removeDatabaseFile(candidate)
        try BackupFileCopy.copy(from: source, to: candidate, limit: .max, shownAs: path)
        do {
            let pageSize = try store.pageSize()
            try LibraryCandidate.prepare(at: candidate, shownAs: path, downloadsRoot: downloadsRoot, pageSize: pageSize, clock: store.clock)
        } catch {
            StateStore.removeDatabaseFile(candidate)
            throw error
        }
        guard let backup = backup(named: name) else {
            StateStore.removeDatabaseFile(candidate)
            throw BackupError(.noBackup, "\(path) went away while it was read.")
        }
        return PreparedLibrary(path: candidate, backup: backup)
    }

    public func requireRoom(toRestore name: String) throws {
        let bytes = backup(named: name)?.bytes ?? 0
        try BackupRoom.require(bytes.addingReportingOverflow(try liveBytes()).partialValue, in: folder,
                              for: "a restore (a copy of the backup to check, and a backup of the library it replaces)")
    }

    public func restore(_ prepared: PreparedLibrary, keepingCurrentAs reason: String?, at date: Date) throws -> LibraryBackup? {
        let kept = reason.map { Self.freePath(in: folder, reason: $0, at: date) }
        do {
            try store.replaceLibrary(with: prepared.path, keepingCurrentIn: kept, downloadsRoot: downloadsRoot)
        } catch {
            throw BackupError(.failed, "\(error)")
        }
        return try kept.map(made)
    }

    public func discard(_ prepared: PreparedLibrary) {
        StateStore.removeDatabaseFile(prepared.path)
    }

    public func importBackup(from descriptor: Int32, at date: Date) throws -> LibraryBackup {
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
            try BackupRoom.require(UInt64(max(0, status.st_size)), in: folder, for: "the file passed, as a backup")
        }
        let path = Self.freePath(in: folder, reason: BackupName.imported, at: date)
        try BackupFileCopy.copy(from: descriptor, to: path, limit: Self.maximumImportBytes, shownAs: "The file passed")
        do {
            try LibraryCandidate.check(path, shownAs: "The file passed")
        } catch {
            StateStore.removeDatabaseFile(path)
            throw error
        }
        return try made(path)
    }

    /// The live library's size as a backup of it takes (`StateStore.libraryBytes`).
    private func liveBytes() throws -> UInt64 {
        do {
            return try store.libraryBytes()
        } catch {
            throw BackupError(.failed, "Cannot read the size of the library in \(store.path): \(error).")
        }
    }

    /// The backup just made at `path`.
    private func made(_ path: String) throws -> LibraryBackup {
        guard let backup = backup(named: String(path.dropFirst(folder.count + 1))) else {
            throw BackupError(.failed, "\(path) was made but is not there.")
        }
        return backup
    }

    /// A backup's path in `folder` that nothing holds yet: named for `reason` and `date`, with
    /// `.2`, `.3`… when another was taken in the same second.
    static func freePath(in folder: String, reason: String, at date: Date) -> String {
        var copy = 1
        while true {
            let path = folder + "/" + BackupName.make(takenAt: date, reason: reason, copy: copy)
            var status = stat()
            if lstat(path, &status) != 0, errno == ENOENT { return path }
            copy += 1
        }
    }
}
