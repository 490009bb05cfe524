/// A change to the podcast settings a view submits: the settings it names, the rest unchanged.
public struct SettingsSubmission: Sendable, Hashable {
    public var notify: Bool?
    public var deleteWhenPlayed: Bool?
    public var playedAt: Double?

    public init(notify: Bool? = nil, deleteWhenPlayed: Bool? = nil, playedAt: Double? = nil) {
        self.notify = notify
        self.deleteWhenPlayed = deleteWhenPlayed
        self.playedAt = playedAt
    }

    /// `settings` with this submission applied; `SubmissionError` when a value is out of range.
    public func applied(to settings: PodcastSettings) throws -> PodcastSettings {
        var settings = settings
        if let playedAt {
            guard PodcastSettings.playedAtRange.contains(playedAt) else {
                throw SubmissionError("'playedAt' is a fraction from 0.5 to 1 (0.95 is 95%), not \(playedAt).")
            }
            settings.playedAt = playedAt
        }
        if let notify { settings.notify = notify }
        if let deleteWhenPlayed { settings.deleteWhenPlayed = deleteWhenPlayed }
        return settings
    }
}
