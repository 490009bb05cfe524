/// How `almanac episode play` starts a media player on an episode: which program, and the
/// arguments that open the audio at the saved position. The `player` setting names the
/// command (split as a shell would: quotes and backslashes); `{media}` and `{start}` in it
/// are replaced by the audio and the start in whole seconds, the audio is added at the end
/// when `{media}` is absent, and mpv, VLC and MPlayer are told where to start when `{start}`
/// is absent. With no setting, the first of mpv, vlc and xdg-open that is installed.
public struct PlayerCommand: Sendable, Hashable {
    /// What to run: the program's path first.
    public var arguments: [String]
    /// The program's name as the user knows it (`mpv`), for messages.
    public var name: String
    /// Whether the program was told where to start (xdg-open, and commands we do not know, are not).
    public var startsAtPosition: Bool

    /// Tried in this order when the `player` setting is empty.
    public static let automatic = ["mpv", "vlc", "xdg-open"]

    /// The command that plays `media` (a file's path or a URL) from `start` seconds, or `nil`
    /// when the program is not installed (`find` gives a program's path, `nil` when there is none).
    /// Throws `SubmissionError` for a setting with an unclosed quote.
    public static func make(setting: String, media: String, start: Double, find: (String) -> String?) throws -> PlayerCommand? {
        // Within what an episode's position may be: a larger `Double` would trap as an `Int`.
        let seconds = start.isFinite && start >= 1 && start <= PlayStateSubmission.maximumPosition ? Int(start) : 0
        let given = try words(setting)
        guard let program = given.first ?? automatic.first(where: { find($0) != nil }), let path = find(program) else { return nil }
        let name = program.split(separator: "/").last.map(String.init) ?? program
        var arguments = [path]
        var placed = (media: false, start: false)
        for word in given.dropFirst() {
            placed.media = placed.media || word.contains("{media}")
            placed.start = placed.start || word.contains("{start}")
            arguments.append(word.replacing("{media}", with: media).replacing("{start}", with: String(seconds)))
        }
        let startOption: [String]? = switch name {
        case "mpv": ["--start=\(seconds)"]
        case "vlc", "cvlc": ["--start-time=\(seconds)"]
        case "mplayer": ["-ss", String(seconds)]
        default: nil
        }
        if !placed.start, seconds > 0, let startOption { arguments += startOption }
        if !placed.media { arguments.append(media) }
        return PlayerCommand(arguments: arguments, name: name, startsAtPosition: placed.start || seconds == 0 || startOption != nil)
    }

    /// The longest command kept.
    public static let maximumLength = 1_000

    /// `setting` as kept: trimmed, one line of at most `maximumLength` characters without
    /// control characters, its quotes closed; `SubmissionError` otherwise. What the command
    /// does is the user's choice: a `sh -c` around `{media}` runs a shell on what a feed gave
    /// (docs/security.md).
    public static func checked(_ setting: String) throws -> String {
        let command = setting.trimmed
        guard command.count <= maximumLength else {
            throw SubmissionError("The player is a command of at most \(maximumLength) characters, not \(command.count).")
        }
        guard !command.hasControlCharacters else { throw SubmissionError("The player is a command on one line, without control characters.") }
        _ = try words(command)
        return command
    }

    /// Whether `media` may be handed to a player: an http or https address (a downloaded file
    /// is the daemon's own path and is given as it is). A feed's `file:`, `smb:` or any other
    /// scheme would make the player (or `xdg-open`, any handler) open what the feed chose.
    public static func isWebAddress(_ media: String) -> Bool {
        let lower = media.lowercased()
        return (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && !media.hasControlCharacters
    }

    /// Programs that open a file or an address with whatever program the desktop associates
    /// with it (by the file's extension, or the address's scheme), rather than playing it.
    public static let openers: Set<String> = ["xdg-open", "gio", "gvfs-open", "gnome-open", "kde-open", "kde-open5", "kioclient",
                                              "kioclient5", "exo-open", "mimeopen", "run-mailcap", "see", "handlr"]

    /// Whether this command is a generic opener (`openers`), not a media player.
    public var isOpener: Bool { Self.openers.contains(name) }

    /// Whether a generic opener may be handed `media`: an http or https address (which it
    /// gives to the web browser) or a file whose name ends in an audio or video extension
    /// (`MediaFile`), so that it opens a media player — never a `.jar`, `.exe`, `.html` or a
    /// `.bin` a feed's server chose, which it would open with the program for that kind.
    public static func opensAsMedia(_ media: String) -> Bool {
        isWebAddress(media) || (media.hasPrefix("/") && MediaFile.isMedia(name: media))
    }

    /// `text` split into words as a shell would (without expansions): blanks separate words,
    /// '…' is literal, "…" is literal but for \" and \\, and \ outside quotes takes the next character.
    public static func words(_ text: String) throws -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                // In "…", a backslash escapes only " and \; before anything else it stays.
                let kept = quote == "\"" && character != "\"" && character != "\\" ? "\\" : ""
                word = (word ?? "") + kept + String(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    word = (word ?? "") + String(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                word = word ?? ""
            } else if character == "\\" {
                escaped = true
            } else if character == " " || character == "\t" {
                if let finished = word { words.append(finished) }
                word = nil
            } else {
                word = (word ?? "") + String(character)
            }
        }
        guard quote == nil, !escaped else { throw SubmissionError("The command \(text.prefix(200)) has a quote or a backslash that is not closed.") }
        if let word { words.append(word) }
        return words
    }
}
