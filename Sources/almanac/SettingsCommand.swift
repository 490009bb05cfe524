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
        abstract: "Shows or changes settings: \(names.joined(separator: ", ")).",
        discussion: Setting.allCases.map { entry($0.name + " " + usage(of: $0).example, $0.summary) }.joined(separator: "\n") + """

            \(entry("player CMD|automatic", "what `episode play` runs; automatic: mpv, vlc, xdg-open"))
                (kept by almanac itself in $XDG_CONFIG_HOME/almanac/cli.conf)
            Each podcast's own settings (refresh interval, auto-download, keep, delete-played-after, notify):
            `almanac podcasts settings PODCAST`.
            """,
        subcommands: [List.self, Get.self, Set.self],
        defaultSubcommand: List.self
    )

    /// The CLI's own setting: what `episode play` runs (`PlayerSetting`), never the daemon's.
    static let player = "player"

    /// Every setting's name: the daemon's (`Setting`, each named once there), then `player`.
    static let names = Setting.allCases.map(\.name) + [player]

    /// The names as a sentence: "notify, …, provider or player".
    static var nameList: String { names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1] }

    /// A setting in the help: `name value`, and below it what it does.
    private static func entry(_ usage: String, _ summary: String) -> String {
        usage + "\n    " + summary
    }

    /// How a daemon setting's value is written: an example for the help's table, and the
    /// values `settings set` takes.
    static func usage(of setting: Setting) -> (example: String, values: String) {
        switch setting {
        case .notify, .deleteWhenPlayed, .continuous: ("on|off", "on|off")
        case .playedAt: ("95%", "a percentage (50%–100%)")
        case .minimumFreeSpace: ("1GiB", "a size (500MiB, 2GiB, 0)")
        case .units: (choices(Units.self), choices(Units.self))
        case .provider: (choices(WeatherProvider.self), choices(WeatherProvider.self))
        case .rainNotify: (choices(RainNotice.self), choices(RainNotice.self))
        case .windUnit: (choices(WindUnit.self), choices(WindUnit.self))
        case .precipitationUnit: (choices(PrecipitationUnit.self), choices(PrecipitationUnit.self))
        case .weatherAlerts: (choices(AlertNotice.self), choices(AlertNotice.self))
        case .metered: (choices(MeteredUse.self), choices(MeteredUse.self))
        case .backupsKept: ("7", "a count (1–100)")
        }
    }

    /// Every value of a setting that takes one of a few words: `metric|imperial`.
    private static func choices<Choice: CaseIterable & RawRepresentable<String>>(_: Choice.Type) -> String {
        Choice.allCases.map(\.rawValue).joined(separator: "|")
    }

    /// The values `settings set` takes, a setting's after another, then `player`'s.
    static var valueList: String {
        var forms: [String] = []
        for setting in Setting.allCases where !forms.contains(usage(of: setting).values) { forms.append(usage(of: setting).values) }
        return (forms + ["a command or automatic (player)"]).joined(separator: ", ")
    }

    /// What each setting does, for `settings list`.
    static func meaning(of name: String) -> String {
        Setting(name: name)?.summary ?? "the command `almanac episode play` runs (kept by almanac itself, not almanacd)"
    }

    /// A daemon setting's value: as `settings list` and `get` show it, and as `--json` gives
    /// it (flags as booleans, `played-at` as a fraction 0…1).
    static func value(of setting: Setting, podcasts: PodcastSettings, weather: WeatherState) -> (text: String, json: JSONValue) {
        switch setting {
        case .notify: (podcasts.notify ? "on" : "off", .boolean(podcasts.notify))
        case .deleteWhenPlayed: (podcasts.deleteWhenPlayed ? "on" : "off", .boolean(podcasts.deleteWhenPlayed))
        case .playedAt: ("\(Int((podcasts.playedAt * 100).rounded()))%", .number(podcasts.playedAt, decimals: 4))
        case .minimumFreeSpace: (FreeSpace.bytes(podcasts.minimumFreeSpace), .integer(Int64(clamping: podcasts.minimumFreeSpace)))
        case .continuous: (podcasts.continuous ? "on" : "off", .boolean(podcasts.continuous))
        case .units: (weather.units.rawValue, .string(weather.units.rawValue))
        case .provider: (weather.provider.rawValue, .string(weather.provider.rawValue))
        case .rainNotify: (weather.rainNotify.rawValue, .string(weather.rainNotify.rawValue))
        case .windUnit: (weather.windUnit.rawValue, .string(weather.windUnit.rawValue))
        case .precipitationUnit: (weather.precipitationUnit.rawValue, .string(weather.precipitationUnit.rawValue))
        case .weatherAlerts: (weather.weatherAlerts.rawValue, .string(weather.weatherAlerts.rawValue))
        case .metered: (podcasts.metered.rawValue, .string(podcasts.metered.rawValue))
        case .backupsKept: (String(podcasts.backupsKept), .integer(Int64(podcasts.backupsKept)))
        }
    }

    /// Every setting as `--json` gives it.
    static func json(_ client: AlmanacClient) async throws -> JSONValue {
        let podcasts = try await client.podcastSettings()
        let weather = try WireCoding.decode(WeatherState.self, fromFields: try await client.state(of: .weather).state)
        var fields = Dictionary(uniqueKeysWithValues: Setting.allCases.map { ($0.name, value(of: $0, podcasts: podcasts, weather: weather).json) })
        fields[player] = .string(try await PlayerSetting.current(client))
        return .object(fields)
    }

    /// Every setting as (name, value) in display form, in the order of `names`.
    static func current(_ client: AlmanacClient) async throws -> [(String, String)] {
        let podcasts = try await client.podcastSettings()
        let weather = try WireCoding.decode(WeatherState.self, fromFields: try await client.state(of: .weather).state)
        return Setting.allCases.map { ($0.name, value(of: $0, podcasts: podcasts, weather: weather).text) }
            + [(player, try await PlayerSetting.current(client).nonEmpty ?? "automatic")]
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
                    let rows = settings.map { (name: $0.0, value: $0.1, meaning: SettingsCommand.meaning(of: $0.0)) }
                    for line in common.rendering().settings(rows) { Terminal().line(line) }
                }
            }
        }
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Prints one setting's value.")
        @ArgumentParser.Argument(help: ArgumentHelp(SettingsCommand.nameList + ".", valueName: "name")) var name: String
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
        @ArgumentParser.Argument(help: ArgumentHelp(SettingsCommand.nameList + ".", valueName: "name")) var name: String
        @ArgumentParser.Argument(help: ArgumentHelp(SettingsCommand.valueList + ".", valueName: "value")) var value: String
        @OptionGroup var common: CommonOptions

        func validate() throws {
            if name != SettingsCommand.player { _ = try change() }
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
                if name == SettingsCommand.player { throw ValidationError("'\(name)' is kept by almanac itself, not by almanacd.") }  // `run` keeps it
                throw ValidationError("There is no setting '\(name)'; there are: \(SettingsCommand.names.joined(separator: ", ")).")
            }
            switch setting {
            case .notify, .deleteWhenPlayed, .continuous: return (setting, .boolean(try flag()))
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
            case .rainNotify:
                guard let notice = RainNotice(rawValue: value.lowercased()) else {
                    throw ValidationError("'\(setting.name)' is off, 15m, 30m or 60m (how long before rain starts to be told), not '\(value)'.")
                }
                return (setting, .string(notice.rawValue))
            case .windUnit:
                guard let unit = WindUnit(rawValue: value.lowercased()) else {
                    throw ValidationError("'\(setting.name)' is auto, km/h, m/s, mph, kn or bft, not '\(value)'.")
                }
                return (setting, .string(unit.rawValue))
            case .precipitationUnit:
                guard let unit = PrecipitationUnit(rawValue: value.lowercased()) else {
                    throw ValidationError("'\(setting.name)' is auto, mm or in, not '\(value)'.")
                }
                return (setting, .string(unit.rawValue))
            case .weatherAlerts:
                guard let notice = AlertNotice(rawValue: value.lowercased()) else {
                    throw ValidationError("'\(setting.name)' is off, severe (severe and extreme alerts) or all, not '\(value)'.")
                }
                return (setting, .string(notice.rawValue))
            case .metered:
                guard let use = MeteredUse(rawValue: value.lowercased()) else {
                    throw ValidationError("'\(setting.name)' is allow or pause (on a metered connection: auto-downloads wait and feeds are read at most hourly), not '\(value)'.")
                }
                return (setting, .string(use.rawValue))
            case .backupsKept:
                let range = PodcastSettings.backupsKeptRange
                guard let count = UInt32(value), range ~= Int(count) else {
                    throw ValidationError("'\(setting.name)' is how many backups of the library to keep, \(range.lowerBound) to \(range.upperBound); not '\(value)'.")
                }
                return (setting, .uint32(count))
            }
        }

        func run() async throws {
            if name == SettingsCommand.player {
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
