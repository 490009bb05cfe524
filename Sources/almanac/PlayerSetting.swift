import AlmanacWire
import AlmanacModels
import AlmanacViews

/// The `player` setting: in the CLI's own file (`CLIConfiguration`), never on the bus, so
/// that the program `episode play` runs is the user's choice and no other client's.
/// almanacd kept it before (and still shows the value it had, read-only): the first time the
/// file does not say, that value is carried over into it, once, and said on standard error.
enum PlayerSetting {
    /// The command ("" for automatic), carried over from almanacd when the file has none.
    static func current(_ client: AlmanacClient) async throws -> String {
        var configuration = CLIConfiguration.load()
        if let player = configuration.player { return player }
        let kept = (try? await client.podcastSettings().player) ?? ""
        configuration.player = kept
        // Kept once; a file that cannot be written is tried again next time.
        try? configuration.save()
        if !kept.isEmpty {
            Terminal().notice("almanac: the player setting is kept by almanac itself now, in \(CLIConfiguration.path); carried over from almanacd: \(kept)".visibleControlCharacters())
        }
        return kept
    }

    /// Keeps `command` ("automatic" or "" for the first of mpv, vlc, xdg-open) in the file,
    /// checked first; the message of a command that cannot be taken says why.
    static func set(_ command: String) throws {
        let checked = command.trimmed.lowercased() == "automatic" ? "" : try PlayerCommand.checked(command)
        var configuration = CLIConfiguration.load()
        configuration.player = checked
        try configuration.save()
    }
}
