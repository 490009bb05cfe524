import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser
import DBus
import Glibc

/// `almanac episode play ID | --next [PODCAST] [--at TIME]`: hands an episode to the user's media player
/// at its saved position (or `--at`) and returns (the player runs on its own; the daemon's MPRIS listener
/// records how far it gets, as for any player).
struct EpisodePlay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Plays an episode from where you left off, in your media player.",
        discussion: """
            Plays the downloaded file when there is one, else the audio URL — only an http or https one: a feed's file:, smb: or other address is refused —, starting at the saved position (from the start when the episode was played to the end), or at --at's time (12:31, 1:02:03, or seconds; a time past the episode's end is refused). The player is the `player` setting, kept in almanac's own file $XDG_CONFIG_HOME/almanac/cli.conf (`almanac settings set player "mpv --no-video"`; `{media}` and `{start}` in it are replaced by the audio and the start in seconds), else the first of mpv, vlc and xdg-open installed; mpv, VLC and MPlayer are told where to start, xdg-open cannot be. A generic opener (xdg-open, gio, kde-open…) is handed only web addresses and files named as audio or video (.mp3, .m4a, .ogg…): a download saved under another name is refused rather than opened by the program for that kind of file. The player runs on its own: this command returns at once.
            """
    )

    @ArgumentParser.Argument(help: ArgumentHelp("An episode id; with --next, a podcast (id or feed URL) to take it from.", valueName: "id"))
    var target: String?
    @Flag(help: "Play the head of the Up Next queue, else the newest unplayed episode (of the podcast given, else of all).") var next = false
    @Option(help: ArgumentHelp("Start here instead of the saved position: 12:31, 1:02:03 or seconds (as `episode transcript` and `episodes --search` show times).", valueName: "time"))
    var at: String?
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if !next && target == nil { throw ValidationError("Say which episode to play: an id from `almanac episodes`, or --next.") }
        if let at, clockSeconds(at) == nil {
            throw ValidationError("--at takes a time such as 12:31, 1:02:03 or 90 (seconds), not '\(at.prefix(40))'.")
        }
    }

    func run() async throws {
        try await withClient(common) { client in
            let (episode, podcastTitle) = try await client.episode(try await chosenID(client))
            let media = try Self.media(of: episode)
            let setting = try await PlayerSetting.current(client)
            let start = try at.flatMap(clockSeconds).map { seconds in
                if let duration = episode.duration, seconds >= duration {
                    throw CLIError.usage("--at \(clockDuration(seconds)) is past the end of “\(episode.title)”, which lasts \(clockDuration(duration))",
                                         "give a time before \(clockDuration(duration))")
                }
                return seconds
            } ?? (episode.played ? 0 : episode.position)
            let command: PlayerCommand
            do {
                guard let found = try PlayerCommand.make(setting: setting, media: media, start: start, find: Self.find) else {
                    throw setting.isEmpty
                        ? CLIError.refused("no media player found: none of \(PlayerCommand.automatic.joined(separator: ", ")) is installed",
                                           "install mpv, or name your player with `almanac settings set player COMMAND`")
                        : CLIError.refused("the player '\(((try? PlayerCommand.words(setting)) ?? []).first ?? setting)' is not installed",
                                           "install it, or change the command with `almanac settings set player COMMAND`")
                }
                command = found
            } catch let error as SubmissionError {
                throw CLIError.refused(error.message, "change it with `almanac settings set player COMMAND`")
            }
            if command.isOpener && !PlayerCommand.opensAsMedia(media) {
                throw CLIError.refused("“\(episode.title)” was saved as \(media.split(separator: "/").last.map(String.init) ?? media), which is not named as audio or video: \(command.name) would open it with whatever program that kind of file has, not a media player",
                                       "nothing was opened; install mpv or VLC (they play it whatever its name), or name your player with `almanac settings set player COMMAND`")
            }
            try Self.spawn(command.arguments)
            let from = command.startsAtPosition
                ? (start >= 1 ? " from \(clockDuration(start))" : "")
                : (start >= 1 ? " (from the start: \(command.name) cannot be told to start at \(clockDuration(start)))" : "")
            let podcast = podcastTitle.map { " of \($0)" } ?? ""
            Terminal().textLine("Playing “\(episode.title)”\(podcast) in \(command.name)\(from).")
        }
    }

    /// The episode to play: the one named, or the head of the queue (its first episode of
    /// the podcast given), else the newest unplayed one.
    private func chosenID(_ client: AlmanacClient) async throws -> String {
        guard next else { return target ?? "" }
        let queue = try await client.queue()
        if let target {
            let podcast = try await client.subscriptions().first { $0.id == target || $0.feedURL == target }?.id ?? target
            if let head = queue.first(where: { $0.episode.podcastID == podcast }) { return head.episode.id }
        } else if let head = queue.first {
            return head.episode.id
        }
        let page = try await client.listEpisodes(podcast: target ?? "", query: ["unplayed": .boolean(true), "limit": .uint32(1)])
        guard let newest = page.episodes.first else {
            throw CLIError.refused("there is no unplayed episode" + (target.map { " of '\($0)'" } ?? ""),
                                   "`almanac episodes` lists them; `almanac podcasts refresh` looks for new ones")
        }
        return newest.id
    }

    /// The downloaded file while it is there, else the audio URL when it is on the web: what
    /// a player is handed is almanacd's own download or an http(s) address, never a feed's
    /// `file:` or `smb:` (a player, or `xdg-open`, would open whatever the feed chose).
    static func media(of episode: Episode) throws -> String {
        if let file = episode.file, access(file, R_OK) == 0 { return file }
        guard let url = episode.audioURL else {
            throw CLIError.refused("“\(episode.title)” has no audio to play: its feed gives no enclosure", "")
        }
        guard PlayerCommand.isWebAddress(url) else {
            throw CLIError.refused("“\(episode.title)” has its audio at \(url.prefix(200)), which is not an http or https address: Almanac hands a player only web addresses and the files almanacd downloaded",
                                   "nothing was played; if you trust the file, open it yourself")
        }
        return url
    }

    /// The path of `program` (a name looked up in PATH, or a path), `nil` when it cannot be run.
    static func find(_ program: String) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(program)"
            var status = stat()
            if stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Starts `arguments` in a session of its own, its input and output on /dev/null, and
    /// does not wait for it (the player outlives this command; init reaps it).
    static func spawn(_ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // POSIX_SPAWN_SETSID (glibc 2.26; hidden behind _GNU_SOURCE from Swift): closing the terminal does not stop the player.
        posix_spawnattr_setflags(&attributes, 0x80)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard status == 0 else {
            throw CLIError(message: "could not start \(arguments[0]): \(String(cString: strerror(status)))",
                           hint: "check the `player` setting with `almanac settings get player`", exit: 1)
        }
    }
}
