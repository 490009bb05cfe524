import AlmanacCore
import AlmanacModels

/// Whether a copy of the library fits in the backups folder's file system with room to spare.
/// The folder is beside the state file (`$XDG_STATE_HOME/almanac`), so a copy that filled its
/// file system would stop the live library's writes too: every backup, a restore (the copy it
/// checks and the backup before it) and an import are refused unless what is free — as an
/// unprivileged process may use it (`StatvfsDiskSpace`) — holds the copy and `margin` beside it.
enum BackupRoom {
    /// What stays free after a copy: room for the live library to go on writing (its log grows
    /// by some MiB between checkpoints) and for the user to notice, whatever the disk's size.
    static let margin: UInt64 = 64 << 20

    /// Refuses (`BackupError`, `noSpace`) when `folder`'s file system has less free than
    /// `bytes` and `margin`. `what` names the copy ("a backup of the library"). A file system
    /// that cannot be asked is not refused here: the copy then says why it fails.
    static func require(_ bytes: UInt64, in folder: String, for what: String) throws {
        guard let space = try? StatvfsDiskSpace().freeSpace(at: folder) else { return }
        let (needed, overflow) = bytes.addingReportingOverflow(margin)
        guard overflow || space.available < needed else { return }
        let shown = FreeSpace.bytes
        throw BackupError(.noSpace, "Not enough free space for \(what) in \(folder): it needs \(shown(overflow ? .max : needed)) "
                          + "(\(shown(bytes)) for the copy and \(shown(margin)) kept free so the library can go on writing), "
                          + "and the disk at \(space.mountPoint) has \(shown(space.available)) free. "
                          + "Free some space on it and try again; nothing was changed.")
    }
}
