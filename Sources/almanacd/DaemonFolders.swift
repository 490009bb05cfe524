import Foundation

/// Where the daemon keeps its state and puts downloads: the options' folders, else the XDG
/// base directories.
struct DaemonFolders {
    /// Settings, readings, the library: `--state-dir`, else `$XDG_STATE_HOME/almanac`.
    let state: URL
    /// Downloaded episodes: `--data-dir`, else `$XDG_DATA_HOME/almanac`.
    let data: URL

    init(stateDir: String?, dataDir: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        state = stateDir.map { URL(fileURLWithPath: $0) } ?? Self.xdg("XDG_STATE_HOME", or: ".local/state", environment)
        data = dataDir.map { URL(fileURLWithPath: $0) } ?? Self.xdg("XDG_DATA_HOME", or: ".local/share", environment)
    }

    private static func xdg(_ variable: String, or fallback: String, _ environment: [String: String]) -> URL {
        let base = environment[variable].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/" + fallback)
        return URL(fileURLWithPath: base).appendingPathComponent("almanac")
    }
}
