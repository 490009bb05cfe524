import AlmanacModels

/// A podcast's `include` or `exclude` pattern kept in the archive (by an earlier Almanac,
/// or written there by hand) that `TitlePattern` does not take: it is not in effect, and
/// the podcasts document's `LastError` names it until it is set again.
public struct RefusedTitlePattern: Sendable, Hashable {
    public let podcastID: String
    /// `include` or `exclude`.
    public let setting: String
    public let pattern: String
    /// `TitlePattern.refusal`'s words for it.
    public let reason: String

    public init(podcastID: String, setting: String, pattern: String, reason: String) {
        self.podcastID = podcastID
        self.setting = setting
        self.pattern = pattern
        self.reason = reason
    }

    /// `pattern` judged as the `setting` of `podcastID`: `nil` when it is taken.
    public init?(podcastID: String, setting: String, pattern: String) {
        guard let reason = TitlePattern.refusal(pattern, name: setting) else { return nil }
        self.init(podcastID: podcastID, setting: setting, pattern: pattern, reason: reason)
    }
}
