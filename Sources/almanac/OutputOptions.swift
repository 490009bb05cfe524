import AlmanacWire
import AlmanacViews
import ArgumentParser

/// The fields a command's `--format` template may name, listed in its `--help`.
protocol FormatFields {
    /// Every field's name.
    static var names: [String] { get }
    /// How `--help` lists them; by default the names.
    static var help: String { get }
}

extension FormatFields {
    static var help: String { names.joined(separator: ", ") }
}

/// The options of a command that prints items: `--json`, `--address` and `--format`, whose
/// template may name only `Fields` (anything else is a usage error naming those that exist).
struct OutputOptions<Fields: FormatFields>: ParsableArguments {
    @OptionGroup var common: CommonOptions

    @Option(help: ArgumentHelp("Render each item with a template, such as '{{\(Fields.names.first ?? "field")}}'; '{{field|fallback}}' sets a default; '{{#field}}…{{/field}}' shows only when the field is set, '{{^field}}…{{/field}}' only when empty. Fields: \(Fields.help).", valueName: "template"))
    var format: String?

    func validate() throws {
        if common.json && format != nil { throw ValidationError("--json and --format were both given — choose one") }
        _ = try template(fields: Fields.names)
    }

    /// The template, checked against `fields` (a narrower set than `Fields` where the
    /// command's arguments choose, as `forecast --hourly` does).
    func template(fields: [String]) throws -> Template? {
        guard let format else { return nil }
        let template: Template
        do { template = try Template(format) } catch { throw ValidationError(error.message + " — close each '{{' with '}}'; '{{{{' writes '{{'") }
        let unknown = template.unknownFields(among: fields)
        guard unknown.isEmpty else {
            let named = unknown.map { "'\($0)'" }.joined(separator: ", ")
            throw ValidationError("--format names \(unknown.count == 1 ? "a field" : "fields") that \(CommandPath.current) does not have: \(named) — use \(fields.joined(separator: ", "))")
        }
        return template
    }

    /// Lines, JSON or the template, for this command.
    func rendering() -> Rendering {
        Rendering(terminal: Terminal(), template: try? template(fields: Fields.names), json: common.json)
    }
}

// MARK: The field sets

enum WeatherFields: FormatFields { static let names = WeatherNowViewData.fieldNames }
enum AlertFields: FormatFields { static let names = AlertViewData.fieldNames }
enum EpisodeFields: FormatFields { static let names = EpisodeViewData.fieldNames }
enum QueueFields: FormatFields { static let names = QueueEntryViewData.fieldNames }
enum PodcastFields: FormatFields { static let names = PodcastPreviewViewData.fieldNames }
enum FeedEpisodeFields: FormatFields { static let names = FeedEpisodeViewData.fieldNames }
enum DownloadFields: FormatFields { static let names = DownloadProgressViewData.fieldNames }
enum LocationFields: FormatFields { static let names = ["location"] }
enum SettingFields: FormatFields { static let names = ["name", "value"] }
enum BackupFields: FormatFields { static let names = ["name", "path", "taken", "size", "reason"] }
enum StatusFields: FormatFields { static let names = DaemonStatusViewData.fieldNames }

/// `forecast`: days, or hours with `--hourly`.
enum ForecastFields: FormatFields {
    static let names = DayViewData.fieldNames + HourViewData.fieldNames.filter { !DayViewData.fieldNames.contains($0) }
    static let help = DayViewData.fieldNames.joined(separator: ", ") + "; with --hourly: " + HourViewData.fieldNames.joined(separator: ", ")
}

/// `get` and `watch`: the weather's fields or an episode's.
enum DocumentFields: FormatFields {
    static let names = WeatherNowViewData.fieldNames + (EpisodeViewData.fieldNames + NowPlayingViewData.fieldNames).filter { !WeatherNowViewData.fieldNames.contains($0) }
        .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    static let help = "for weather " + WeatherNowViewData.fieldNames.joined(separator: ", ") + "; for podcasts " + EpisodeViewData.fieldNames.joined(separator: ", ")
        + "; for playing " + NowPlayingViewData.fieldNames.joined(separator: ", ")

    static func names(for document: DocumentName) -> [String] {
        document == .weather ? WeatherNowViewData.fieldNames : EpisodeViewData.fieldNames
    }
}
