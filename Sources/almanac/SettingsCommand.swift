import AlmanacWire
import AlmanacViews
import AlmanacModels
import ArgumentParser
import DBus

/// `almanac settings [list] | get NAME | set NAME VALUE`: the daemon's settings, kept across
/// restarts, and `player`, which the CLI keeps in its own file (`CLIConfiguration`).
struct SettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Shows or changes settings: notify, delete-when-played, played-at, player, minimum-free-space, units, provider.",
        discussion: """
            notify on|off               desktop notifications when a refresh finds new episodes (off)
            delete-when-played on|off   delete an episode's download when it is marked played (off)
            played-at 95%               how far a media player must get for an episode to count as played
            player CMD|automatic        what `episode play` runs; automatic: mpv, vlc, xdg-open
                                        (kept by almanac itself in $XDG_CONFIG_HOME/almanac/cli.conf)
            minimum-free-space 1GiB     no download starts that would leave the disk less free (0: no check)
            units metric|imperial       weather units
            provider open-meteo|met-norway  weather asked first (the other when it fails)
            Each podcast's own settings (refresh interval, auto-download, keep, delete-played-after, notify):
            `almanac podcasts settings PODCAST`.
            """,
        subcommands: [List.self, Get.self, Set.self],
        defaultSubcommand: List.self
    )

    static let names = [Setting.notify.name, Setting.deleteWhenPlayed.name, Setting.playedAt.name, "player", Setting.minimumFreeSpace.name, Setting.units.name, Setting.provider.name]

    /// What each setting does, for `settings list`.
    static let meanings = [
        Setting.notify.name: "desktop notifications when a refresh finds new episodes",
        Setting.deleteWhenPlayed.name: "delete an episode's download when it is marked played",
        Setting.playedAt.name: "how far a media player must get for an episode to count as played",
        "player": "the command `almanac episode play` runs (kept by almanac itself, not almanacd)",
        Setting.minimumFreeSpace.name: "no download starts that would leave the downloads' disk with less free (0: no check)",
        Setting.units.name: "weather units",
        Setting.provider.name: "where weather is asked first; the other provider when it fails",
    ]

    /// Every setting as `--json` gives it: flags as booleans, `played-at` as a fraction 0…1.
    static func json(_ client: AlmanacClient) async throws -> JSONValue {
        let podcasts = try await client.podcastSettings()
        let weather = WeatherCodec.decodeState(try await client.state(of: .weather).state)
        return .object([
            Setting.notify.name: .boolean(podcasts.notify), Setting.deleteWhenPlayed.name: .boolean(podcasts.deleteWhenPlayed),
            Setting.playedAt.name: .number(podcasts.playedAt, decimals: 4), "player": .string(try await PlayerSetting.current(client)),
            Setting.minimumFreeSpace.name: .integer(Int64(clamping: podcasts.minimumFreeSpace)), Setting.units.name: .string(weather.units.rawValue), Setting.provider.name: .string(weather.provider.rawValue),
        ])
    }

    /// Every setting as (name, value) in display form.
    static func current(_ client: AlmanacClient) async throws -> [(String, String)] {
        let podcasts = try await client.podcastSettings()
        let weather = WeatherCodec.decodeState(try await client.state(of: .weather).state)
        return [
            (Setting.notify.name, podcasts.notify ? "on" : "off"),
            (Setting.deleteWhenPlayed.name, podcasts.deleteWhenPlayed ? "on" : "off"),
            (Setting.playedAt.name, "\(Int((podcasts.playedAt * 100).rounded()))%"),
            ("player", try await PlayerSetting.current(client).nonEmpty ?? "automatic"),
            (Setting.minimumFreeSpace.name, FreeSpace.bytes(podcasts.minimumFreeSpace)),
            (Setting.units.name, weather.units.rawValue),
            (Setting.provider.name, weather.provider.rawValue),
        ]
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists every setting.")
        @OptionGroup var output: OutputOptions<SettingFields>
        var common: CommonOptions { output.common }

        func run() async throws {
            try await withClient(common) { client in
                if common.json {
                    Terminal().line(Rendering.json(try await SettingsCommand.json(client)))
                    return
                }
                let settings = try await SettingsCommand.current(client)
                if let template = output.rendering().template {
                    for (name, value) in settings { Terminal().line(template.render(["name": name, "value": value])) }
                } else {
                    let rows = settings.map { (name: $0.0, value: $0.1, meaning: SettingsCommand.meanings[$0.0] ?? "") }
                    for line in common.rendering().settings(rows) { Terminal().line(line) }
                }
            }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Prints one setting's value.")
        @ArgumentParser.Argument(help: ArgumentHelp("notify, delete-when-played, played-at, player, minimum-free-space, units or provider.", valueName: "name")) var name: String
        @OptionGroup var common: CommonOptions

        func validate() throws {
            guard SettingsCommand.names.contains(name) else { throw ValidationError("There is no setting '\(name)'; there are: \(SettingsCommand.names.joined(separator: ", ")).") }
        }

        func run() async throws {
            try await withClient(common) { client in
                if let value = try await SettingsCommand.current(client).first(where: { $0.0 == name })?.1 { Terminal().textLine(value) }
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Changes one setting.")
        @ArgumentParser.Argument(help: ArgumentHelp("notify, delete-when-played, played-at, player, minimum-free-space, units or provider.", valueName: "name")) var name: String
        @ArgumentParser.Argument(help: ArgumentHelp("on|off, a percentage (50%–100%), a command or automatic, a size (500MiB, 2GiB, 0), metric|imperial, or open-meteo|met-norway.", valueName: "value")) var value: String
        @OptionGroup var common: CommonOptions

        func validate() throws {
            if name != "player" { _ = try change() }
        }

        /// The daemon setting and its value on the bus; the daemon sends it to the document
        /// that owns it (`SetSetting`).
        func change() throws -> (Setting, Value) {
            func flag() throws -> Bool {
                switch value.lowercased() {
                case "on", "yes", "true", "1": return true
                case "off", "no", "false", "0": return false
                default: throw ValidationError("'\(name)' is on or off, not '\(value)'.")
                }
            }
            guard let setting = Setting(name: name) else {
                if name == "player" { throw ValidationError("'player' is kept by almanac itself, not by almanacd.") }  // `run` keeps it
                throw ValidationError("There is no setting '\(name)'; there are: \(SettingsCommand.names.joined(separator: ", ")).")
            }
            switch setting {
            case .notify, .deleteWhenPlayed: return (setting, .boolean(try flag()))
            case .playedAt:
                let text = value.hasSuffix("%") ? String(value.dropLast()) : value
                guard let number = Double(text), number.isFinite else { throw ValidationError("'\(setting.name)' is a percentage such as 95%, not '\(value)'.") }
                let fraction = value.hasSuffix("%") || number > 1 ? number / 100 : number
                guard PodcastSettings.playedAtRange.contains(fraction) else { throw ValidationError("'\(setting.name)' goes from 50% to 100%, not '\(value)'.") }
                return (setting, .double(fraction))
            case .minimumFreeSpace:
                guard let bytes = parseByteCount(value), bytes <= Double(PodcastSettings.maximumMinimumFreeSpace) else {
                    throw ValidationError("'\(setting.name)' is a size such as 500MiB, 2GiB or 0 (no check), at most 1PiB; not '\(value)'.")
                }
                return (setting, .uint64(UInt64(bytes)))
            case .provider:
                guard let provider = WeatherProvider(rawValue: value.lowercased()) else {
                    throw ValidationError("'\(setting.name)' is open-meteo or met-norway, not '\(value)'.")
                }
                return (setting, .string(provider.rawValue))
            case .units:
                guard let units = Units(rawValue: value.lowercased()) else { throw ValidationError("'\(setting.name)' is metric or imperial, not '\(value)'.") }
                return (setting, .string(units.rawValue))
            }
        }

        func run() async throws {
            if name == "player" {
                // The CLI's own file: no other client of the bus can say what `episode play` runs.
                do {
                    try PlayerSetting.set(value)
                } catch let error as SubmissionError {
                    throw CLIError.refused(error.message, "quote it as a shell would: `almanac settings set player \"mpv --no-video\"`")
                }
                return
            }
            let (setting, value) = try change()
            try await withClient(common) { client in _ = try await client.setSetting(setting, value) }
        }
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
