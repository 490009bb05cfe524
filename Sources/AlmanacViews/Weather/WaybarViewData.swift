import AlmanacModels

/// One line for a waybar custom module (`"return-type": "json"`): `text` on the bar, a
/// `tooltip`, CSS `class`es (the condition, `stale`, `error`) and `alt` (the condition, for
/// `format-icons`). waybar reads `text` and `tooltip` as Pango markup, so what data they
/// hold is escaped (`PangoMarkup`); markup written in the user's own template stays markup.
/// See docs/status-bars.md.
public struct WaybarViewData: Sendable, Hashable, Codable {
    public let text: String
    public let tooltip: String
    public let `class`: [String]
    public let alt: String

    /// The bar's view of a place: `template` (default `{{symbol}} {{temperature}}`) on the bar,
    /// the details and the next hours in the tooltip.
    public init(now: WeatherNowViewData, hours: [HourViewData], template: Template? = nil, alerts: [AlertViewData] = []) {
        text = template?.render(now.fields, escaping: PangoMarkup.escaped) ?? PangoMarkup.escaped("\(now.symbol) \(now.temperature)")
        var lines = [
            now.place,
            "\(now.condition), feels \(now.feelsLike)",
            "Humidity \(now.humidity) · wind \(now.wind) · precipitation \(now.precipitation)",
        ]
        if !now.rain.isEmpty { lines.append(now.rain) }
        if !now.todayRange.isEmpty { lines.append("Today \(now.todayRange)") }
        if !now.details.pollen.isEmpty { lines.append("Pollen: \(now.details.pollen)") }
        if !hours.isEmpty { lines.append(hours.map { "\($0.time) \($0.symbol) \($0.temperature)" }.joined(separator: "  ")) }
        lines.append("updated " + now.updated)
        if let error = now.error { lines.append("Last fetch failed: \(error)") }
        lines.insert(contentsOf: alerts.map { "\($0.line): \($0.alert.headline)" }, at: 1)
        tooltip = PangoMarkup.escaped(lines.joined(separator: "\n"))
        var classes = [now.conditionClass]
        if now.stale { classes.append("stale") }
        if now.error != nil { classes.append("error") }
        // The worst alert in force, from moderate up: `alert-moderate`, `alert-severe`, `alert-extreme`.
        if let worst = alerts.map(\.alert.severity).max(), worst >= .moderate { classes.append("alert-" + worst.rawValue) }
        if let outlook = now.rainOutlook, outlook.expectsRain { classes.append(outlook.className) }
        `class` = classes
        alt = now.conditionClass
    }

    /// A place with no reading at all, only a failure.
    public init(location: String, failure: String) {
        text = PangoMarkup.escaped("⚠ \(location)")
        tooltip = PangoMarkup.escaped("No weather for \(location): \(failure)")
        `class` = ["error"]
        alt = "error"
    }

    /// No place to show: none asked for (`--location`) and none saved. Says how to add one,
    /// so the bar is not left blank.
    public static let noPlace = WaybarViewData(
        text: PangoMarkup.escaped("no place"),
        tooltip: PangoMarkup.escaped("No place to show the weather of: add one with `almanac locations add Berlin`, or watch one with `--location Berlin`."),
        class: ["no-place"], alt: "no-place")

    private init(text: String, tooltip: String, class classes: [String], alt: String) {
        self.text = text
        self.tooltip = tooltip
        `class` = classes
        self.alt = alt
    }

    /// Nothing to show: almanacd is away (`DaemonAwayViewData`). `text` is the template's
    /// rendering when it names `error`, else "⚠ almanacd"; the class is `error`.
    public init(away: DaemonAwayViewData, template: Template?) {
        text = away.rendered(template, escaping: PangoMarkup.escaped) ?? "⚠ almanacd"
        tooltip = PangoMarkup.escaped(away.tooltip)
        `class` = ["error"]
        alt = "error"
    }
}
