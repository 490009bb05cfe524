public import Foundation

extension PrivateBus {
    /// The state folder of the daemon `RunningDaemon` starts on this bus (`--state-dir`).
    public var daemonState: URL { directory.appendingPathComponent("state") }
    /// Its backups folder, inside the state folder.
    public var daemonBackups: URL { daemonState.appendingPathComponent("backups") }
}
