import AlmanacModels
import FoundationEssentials
import Glibc

/// The CLI's own settings, in `$XDG_CONFIG_HOME/almanac/cli.conf` (else
/// `~/.config/almanac/cli.conf`): what only the user's own commands decide, so that no other
/// client of the session bus can change it. Today one key, `player` — the command
/// `almanac episode play` runs (docs/security.md, "Programs the user runs"). One `key = value`
/// a line; `#` starts a comment. almanacd never reads it.
struct CLIConfiguration {
    /// The values by key, as the file has them.
    private(set) var values: [String: String] = [:]

    /// The file: `$XDG_CONFIG_HOME/almanac/cli.conf`, else `$HOME/.config/almanac/cli.conf`.
    static var path: String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((environment["HOME"] ?? "") + "/.config")
        return base + "/almanac/cli.conf"
    }

    /// The file's values; none when there is no file yet.
    static func load(from path: String = CLIConfiguration.path) -> CLIConfiguration {
        var configuration = CLIConfiguration()
        guard let data = FileManager.default.contents(atPath: path) else { return configuration }
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let text = line.trimmed
            guard !text.hasPrefix("#"), let equals = text.firstIndex(of: "=") else { continue }
            configuration.values[text[..<equals].trimmed] = text[text.index(after: equals)...].trimmed
        }
        return configuration
    }

    /// `player`: the command, "" for automatic; `nil` when the file does not say (not set yet).
    var player: String? {
        get { values["player"] }
        set { values["player"] = newValue }
    }

    /// Writes the file whole: its folder made 0700 when new, the file 0600, written beside it
    /// and renamed into place so a reader never sees half of it.
    func save(to path: String = CLIConfiguration.path) throws {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        try Self.makeFolder(folder)
        var text = "# almanac's own settings (the CLI's: almanacd never reads this file).\n"
        text += "# player: the command `almanac episode play` runs; empty: mpv, vlc or xdg-open, the first installed.\n"
        for key in values.keys.sorted() { text += "\(key) = \(values[key] ?? "")\n" }
        let temporary = path + ".new"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw Self.failure("write", temporary) }
        var bytes = Array(text.utf8)
        let written = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            let error = Self.failure("write", path)
            unlink(temporary)
            throw error
        }
        bytes.removeAll()
    }

    private static func makeFolder(_ folder: String) throws {
        var status = stat()
        if stat(folder, &status) == 0 { return }
        let parent = String(folder[..<(folder.lastIndex(of: "/") ?? folder.endIndex)])
        if !parent.isEmpty { try makeFolder(parent) }
        guard mkdir(folder, 0o700) == 0 || errno == EEXIST else { throw failure("create the folder", folder) }
    }

    private static func failure(_ what: String, _ path: String) -> CLIError {
        CLIError(message: "could not \(what) \(path): \(String(cString: strerror(errno)))",
                 hint: "check that the folder is yours and writable (or set XDG_CONFIG_HOME)", exit: 73)
    }
}
