import FoundationEssentials
import Glibc
import Logging

/// Where the daemon keeps its state and puts downloads: the options' folders, else the XDG
/// base directories. The user unit passes both options, so they are the folders its sandbox
/// lets the daemon write whatever the environment says (docs/security.md).
struct DaemonFolders {
    /// Settings, readings, the library: `--state-dir`, else `$XDG_STATE_HOME/almanac`.
    let state: URL
    /// Downloaded episodes: `--data-dir`, else `$XDG_DATA_HOME/almanac`.
    let data: URL
    /// Backups of the state file: `backups` in the state folder.
    var backups: URL { state.appendingPathComponent("backups") }
    /// What the XDG variables alone would have chosen.
    private let xdgState: URL
    private let xdgData: URL

    init(stateDir: String?, dataDir: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        xdgState = Self.xdg("XDG_STATE_HOME", or: ".local/state", environment)
        xdgData = Self.xdg("XDG_DATA_HOME", or: ".local/share", environment)
        state = stateDir.map { URL(fileURLWithPath: $0) } ?? xdgState
        data = dataDir.map { URL(fileURLWithPath: $0) } ?? xdgData
    }

    /// Logs what a person should know at start: a folder given that is not the one the XDG
    /// variables name (under the unit: its folders win over a custom `XDG_*_HOME`), and a
    /// download folder the daemon cannot write (a sandbox that does not allow it), which
    /// would otherwise fail every download.
    func logNotes(to logger: Logger) {
        for (what, used, xdg, option) in [("state", state, xdgState, "--state-dir"), ("downloads", data, xdgData, "--data-dir")]
        where used.standardizedFileURL.path != xdg.standardizedFileURL.path {
            logger.notice("a folder is not where the XDG base directories point",
                          metadata: ["folder": "\(what)", "path": "\(used.path)", "option": "\(option)", "xdg": "\(xdg.path)"])
        }
        let files = FileManager.default
        if (try? files.createDirectory(at: data, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) == nil
            || access(data.path, W_OK) != 0 {
            logger.warning("the download folder cannot be written: every download will fail. Under systemd, the unit must allow it (BindPaths=); or pass another with --data-dir",
                           metadata: ["folder": "\(data.path)"])
        }
    }

    private static func xdg(_ variable: String, or fallback: String, _ environment: [String: String]) -> URL {
        let base = environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? (FileManager.default.homeDirectoryForCurrentUser.path + "/" + fallback)
        return URL(fileURLWithPath: base).appendingPathComponent("almanac")
    }
}
