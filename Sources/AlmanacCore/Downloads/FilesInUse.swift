/// Tells which downloaded files are being played, so that no cleanup deletes them: the
/// media-player listener (the `file://` track of any MPRIS player) in the daemon.
public protocol FilesInUse: Sendable {
    /// Of `files` (absolute paths), those a media player has open now.
    func filesInUse(among files: Set<String>) -> Set<String>
}
