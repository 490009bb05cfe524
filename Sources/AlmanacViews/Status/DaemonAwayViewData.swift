import AlmanacModels

/// What a watch prints while almanacd is away — it never started, it stopped, or the session
/// bus went — so that a status bar reading the watch stops showing the last reading as
/// current: one state line in every output mode, until the daemon is back and the watch
/// renders again. See docs/status-bars.md.
public struct DaemonAwayViewData: Sendable, Hashable {
    /// Why there is nothing to show.
    public enum Reason: Sendable, Hashable {
        /// almanacd was not there when the watch started.
        case notStarted
        /// almanacd left the bus (stopped, crashed, restarting).
        case stopped
        /// The session bus itself went away.
        case busLost
    }

    public let reason: Reason
    /// What the watch watches (`weather`, `podcasts`, `playing`), for `--json`.
    public let document: String
    /// The place a weather watch was given, for a template's `location` and `place`.
    public let location: String?

    public init(_ reason: Reason, document: String, location: String? = nil) {
        self.reason = reason
        self.document = document
        self.location = location
    }

    /// The short reason, a template's `{{error}}`: "almanacd is not running".
    public var error: String {
        reason == .busLost ? "the session bus went away" : "almanacd is not running"
    }

    /// A status bar's tooltip: the reason, and that the watch shows data again by itself.
    public var tooltip: String {
        reason == .busLost
            ? "The session bus went away: this shows the weather again once it is back and almanacd runs."
            : "almanacd is not running: this shows again as soon as it starts (systemctl --user start almanacd)."
    }

    /// The line for people on a terminal.
    public var line: String {
        switch reason {
        case .notStarted: "Waiting for almanacd to start…"
        case .stopped: "almanacd went away; waiting for it to come back…"
        case .busLost: "Lost the connection to the session bus; waiting for it to come back…"
        }
    }

    /// What a `--format` template shows: its rendering with every field empty but `error`
    /// (and `class`, "error"; `location` and `place` for a weather watch of one place), so
    /// that its `{{#error}}…{{/error}}` section says it and `{{^error}}…{{/error}}` hides the
    /// rest, without the blanks the empty fields leave at either end; a template that names
    /// no `error` gets "⚠ almanacd is not running".
    public func line(_ template: Template) -> String {
        rendered(template) ?? "⚠ " + error
    }

    /// The template's rendering as `line(_:)` says, or `nil` when it names no `error`;
    /// `escaping` is applied to the values (waybar's markup).
    public func rendered(_ template: Template?, escaping: (String) -> String = { $0 }) -> String? {
        guard let template, template.names("error") else { return nil }
        var fields = ["error": error, "class": "error"]
        if let location { (fields["location"], fields["place"]) = (location, location) }
        return template.render(fields, escaping: escaping).trimmed
    }

    /// `--json`: `{"document": …, "daemon": "away", "error": …}`.
    public var json: JSONValue {
        .object(["document": .string(document), "daemon": .string("away"), "error": .string(error)])
    }
}
