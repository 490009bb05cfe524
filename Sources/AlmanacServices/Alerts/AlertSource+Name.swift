extension AlertSource {
    /// The source as a person knows it ("MET Norway"), for `LastError` and the CLI's stale note.
    public var displayName: String {
        Self.displayNames[self] ?? rawValue
    }

    private static let displayNames: [AlertSource: String] = [.nws: "NWS", .metalerts: "MET Norway", .meteoalarm: "MeteoAlarm"]
}
