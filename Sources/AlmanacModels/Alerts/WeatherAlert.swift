public import FoundationEssentials

/// An official weather warning for a place, as its source (`nws`, `metalerts`, `meteoalarm`) issued it.
/// Every text is the source's, unchecked for terminal control characters: the views clean it.
public struct WeatherAlert: Sendable, Hashable, Codable {
    /// The source's own id for the alert (stable across its updates).
    public var id: String
    /// What it warns of, short: "Severe Thunderstorm Warning", "Orange wind warning".
    public var event: String
    public var severity: AlertSeverity
    /// The source's word for how sure it is ("Likely", "Observed"), "" when it gives none.
    public var certainty: String
    /// The source's word for how soon to act ("Immediate", "Expected"), "" when it gives none.
    public var urgency: String
    /// When it begins and ends; `nil` when the source does not say.
    public var onset: Date?
    public var expires: Date?
    /// One sentence for a notification's summary.
    public var headline: String
    public var description: String
    /// What to do, "" when the source says nothing.
    public var instruction: String
    /// The area it covers, in the source's words.
    public var area: String
    /// Where it came from: `nws`, `metalerts` or `meteoalarm`.
    public var source: String
    /// The source's page for it, "" when none.
    public var url: String

    public init(id: String, event: String, severity: AlertSeverity, certainty: String = "", urgency: String = "",
                onset: Date? = nil, expires: Date? = nil, headline: String, description: String = "", instruction: String = "",
                area: String = "", source: String, url: String = "") {
        self.id = id
        self.event = event
        self.severity = severity
        self.certainty = certainty
        self.urgency = urgency
        self.onset = onset
        self.expires = expires
        self.headline = headline
        self.description = description
        self.instruction = instruction
        self.area = area
        self.source = source
        self.url = url
    }
}
