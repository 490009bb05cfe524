public import AlmanacModels
public import FoundationEssentials

/// Where backups of the library are kept and how the live library is copied and replaced:
/// the daemon's is the state file and its backups folder (AlmanacServices' `BackupFolder`,
/// SQLite's online backup API). Every method blocks on the disk: `LibraryBackups` calls them
/// on a queue of its own, one at a time. Each throws `BackupError`, and then changed nothing.
public protocol BackupStorage: Sendable {
    /// The folder the backups are in (`$XDG_STATE_HOME/almanac/backups`).
    var folder: String { get }
    /// The backups the folder holds: its regular files named as `BackupName` names them, in any order.
    func backups() throws -> [LibraryBackup]
    /// Copies the live library, as it is now, into a new backup (mode 0600) named for `reason` and `date`.
    func backUp(reason: String, at date: Date) throws -> LibraryBackup
    /// Deletes a backup's file.
    func delete(_ backup: LibraryBackup) throws
    /// A private copy of the backup `name` (a file name in `folder`), checked to be a library
    /// this daemon can restore (SQLite, sound, Almanac's schema no newer than this daemon's),
    /// brought to this daemon's schema, its downloads kept only where their files are here.
    func prepare(named name: String) throws -> PreparedLibrary
    /// Refuses (`noSpace`) a restore of the backup `name` that the folder's file system has no
    /// room for: the copy `prepare` makes and the backup of the live library kept first. A
    /// restore never goes on without that backup, so this is asked before anything is written.
    func requireRoom(toRestore name: String) throws
    /// Makes the live library `prepared`'s — the live one kept first as a new backup named
    /// for `reason` and `date`, which it returns (none when `reason` is `nil`). All or nothing.
    func restore(_ prepared: PreparedLibrary, keepingCurrentAs reason: String?, at date: Date) throws -> LibraryBackup?
    /// Removes the copy `prepare` made.
    func discard(_ prepared: PreparedLibrary)
    /// Copies the regular file open at `descriptor` into the folder as a new backup (`imported`,
    /// at `date`), checked as `prepare` checks; nothing is kept when it is refused.
    func importBackup(from descriptor: Int32, at date: Date) throws -> LibraryBackup
}
