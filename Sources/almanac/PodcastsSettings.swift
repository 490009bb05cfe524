import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser
import DBus

/// `almanac podcasts settings PODCAST [NAME VALUE]`: one podcast's own settings, shown, or one
/// of them changed (`Podcasts1.GetPodcastSettings`/`SetPodcastSettings`).
struct PodcastsSettings: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Shows or changes one podcast's own settings: refresh-interval, auto-download, keep, delete-played-after, notify, auto-queue, skip-intro, skip-outro, speed, include, exclude, episode-types.",
        discussion: """
            Without NAME and VALUE, a table of the podcast's settings; with them,
            changes one:
              refresh-interval 2h|server   how often its feed is read, at least 5m,
                                           instead of its server's cadence (server)
              auto-download on|off         download its new episodes by themselves,
                                           newest first, at most `keep` (off)
              keep 5|all                   how many of the newest downloads stay (all)
              delete-played-after 7d|off   delete a download that long after playing
              notify on|off|default        notifications of its new episodes
                                           (default: the global `notify` setting)
              auto-queue on|off            its new episodes join the Up Next queue,
                                           oldest first for a serial show (off)
              skip-intro 45s|off           a player starting an episode before
                                           this point is moved past it (off)
              skip-outro 30s|off           an episode counts as played this long
                                           before its end (off)
              speed 1.5|player             the rate a player is set to when one of
                                           its episodes starts (player: its own)
              include REGEX|''             auto-download only episodes whose title
                                           matches (any case; '' for any title)
              exclude REGEX|''             auto-download no episode whose title
                                           matches ('' for none left out)
              episode-types full,bonus     which kinds auto-download takes, of full,
                                           trailer, bonus (itunes:episodeType; full)
            A pattern is a regular expression of at most 100 bytes, without
            backreferences or lookaround: it is matched in one pass over the title.
            Times: 30m, 12h, 7d, 1h30m, 45s. No cleanup deletes an episode kept with
            `almanac episode keep ID`, nor a file a media player has open.
            """
    )

    @ArgumentParser.Argument(help: "The podcast: its id (`almanac podcasts list`) or feed URL.")
    var podcast: String

    @ArgumentParser.Argument(help: ArgumentHelp("A setting to change: \(PodcastSettingsViewData.names.joined(separator: ", ")).", valueName: "name"))
    var name: String?

    @ArgumentParser.Argument(help: ArgumentHelp("Its new value: a time (2h, 7d) or server/off, on|off, a number or all, on|off|default, on|off, a time (45s) or off, a rate (1.5) or player, a pattern, a list of episode types.", valueName: "value"))
    var value: String?

    @OptionGroup var output: OutputOptions<SettingFields>
    var common: CommonOptions { output.common }

    func validate() throws {
        guard let name else { return }
        guard value != nil else { throw ValidationError("Give '\(name)' a value, such as `almanac podcasts settings \(podcast) keep 5`.") }
        _ = try Self.change(name, value ?? "")
    }

    func run() async throws {
        try await withClient(common) { client in
            if let name, let value {
                let (key, setting) = try Self.change(name, value)
                do {
                    try await client.setPodcastPreferences(podcast, [key: setting])
                } catch let error as BusError where error.name == .invalidArgs && !error.message.hasPrefix("There is no podcast") {
                    // A value the daemon refuses (a refresh-interval under its floor): what was typed.
                    throw CLIError(message: error.message, hint: "`almanac podcasts settings --help` says what each setting takes", exit: 64, name: error.name.rawValue)
                }
                return
            }
            let preferences = try await client.podcastPreferences(podcast)
            let view = PodcastSettingsViewData(preferences)
            if common.json {
                let id = try await client.subscriptions().first { $0.id == podcast || $0.feedURL == podcast }?.id ?? podcast
                Terminal().line(Rendering.json(["podcast": id, "settings": view.json] as Rendering.JSONObject))
            } else if let template = output.rendering().template {
                for row in view.rows { Terminal().line(template.render(["name": row.name, "value": row.value])) }
            } else {
                for line in common.rendering().settings(view.rows) { Terminal().line(line) }
            }
        }
    }

    /// The `SetPodcastSettings` key and value for `name VALUE`; a usage error for anything else.
    static func change(_ name: String, _ value: String) throws -> (String, Value) {
        let word = value.lowercased()
        switch name {
        case "refresh-interval":
            if ["server", "default"].contains(word) { return ("refreshInterval", .double(0)) }
            guard let seconds = parseCompactDuration(word), seconds > 0 else {
                throw ValidationError("'refresh-interval' is a time such as 30m, 2h or 1d (at least 5m, at most 7d), or server; not '\(value)'.")
            }
            // The floor is the daemon's to say (tests lower it); the ceiling is fixed.
            guard seconds <= PodcastPreferences.maximumRefreshInterval else {
                throw ValidationError("'refresh-interval' is at most 7d (a feed is read at least weekly), or server; not '\(value)'.")
            }
            return ("refreshInterval", .double(seconds))
        case "auto-download":
            return ("autoDownload", .boolean(try flag(name, value)))
        case "keep":
            if word == "all" { return ("keep", .uint32(0)) }
            guard let count = UInt32(word), count > 0, count <= PodcastPreferences.maximumKeep else {
                throw ValidationError("'keep' is a number of downloads from 1 to \(PodcastPreferences.maximumKeep), such as 5, or all; not '\(value)'.")
            }
            return ("keep", .uint32(count))
        case "delete-played-after":
            if ["off", "never"].contains(word) { return ("deletePlayedAfter", .double(0)) }
            guard let seconds = parseCompactDuration(word), seconds > 0, seconds <= PodcastPreferences.maximumDeletePlayedAfter else {
                throw ValidationError("'delete-played-after' is a time such as 12h or 7d (at most 3650d), or off; not '\(value)'.")
            }
            return ("deletePlayedAfter", .double(seconds))
        case "notify":
            if word == "default" { return ("notify", .string("default")) }
            return ("notify", .boolean(try flag(name, value)))
        case "auto-queue":
            return ("autoQueue", .boolean(try flag(name, value)))
        case "skip-intro", "skip-outro":
            let key = name == "skip-intro" ? "skipIntro" : "skipOutro"
            if ["off", "none", "0"].contains(word) { return (key, .double(0)) }
            guard let seconds = parseCompactDuration(word), seconds > 0, seconds <= PodcastPreferences.maximumSkip else {
                throw ValidationError("'\(name)' is a time such as 45s or 1m30s (at most 1h), or off; not '\(value)'.")
            }
            return (key, .double(seconds))
        case "speed":
            if ["player", "off", "default"].contains(word) { return ("speed", .double(0)) }
            guard let rate = Double(word.hasSuffix("x") ? String(word.dropLast()) : word), PodcastPreferences.speeds.contains(rate) else {
                throw ValidationError("'speed' is a rate from 0.25 to 4 such as 1.5 (1 is normal speed), or player; not '\(value)'.")
            }
            return ("speed", .double(rate))
        case "include", "exclude":
            // The pattern is the daemon's to judge (TitlePattern), as for any bus client.
            return (name, .string(value))
        case "episode-types":
            guard (try? EpisodeKind.list(value)) != nil else {
                throw ValidationError("'episode-types' is a list of full, trailer and bonus, such as full,bonus; not '\(value)'.")
            }
            return ("episodeTypes", .string(value))
        default:
            throw ValidationError("There is no podcast setting '\(name)'; there are: \(PodcastSettingsViewData.names.joined(separator: ", ")).")
        }
    }

    private static func flag(_ name: String, _ value: String) throws -> Bool {
        switch value.lowercased() {
        case "on", "yes", "true", "1": return true
        case "off", "no", "false", "0": return false
        default: throw ValidationError("'\(name)' is on or off\(name == "notify" ? " or default" : ""), not '\(value)'.")
        }
    }
}
