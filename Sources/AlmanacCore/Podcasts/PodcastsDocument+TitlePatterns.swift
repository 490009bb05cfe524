import AlmanacModels
import Logging

/// Kept title patterns this Almanac does not take (`RefusedTitlePattern`): they are not in
/// effect, and `LastError` names each with what to do, from the start until the podcast's
/// pattern is set again (or the podcast goes). A failure of an item of its own: a feed's
/// failure may stand in front of it, and once that feed recovers it is said again.
extension PodcastsDocument {
    /// The activity item the refused patterns are reported as.
    static let refusedTitlePatternsItem = "kept title patterns"

    /// Says in `LastError` which kept title patterns are not in effect, or lets the item go
    /// when none is.
    func noteRefusedTitlePatterns() {
        let podcasts = document.snapshot.state.podcasts
        let refused: [RefusedTitlePattern]
        do {
            refused = try archive.refusedTitlePatterns().filter { podcasts[$0.podcastID] != nil }
        } catch {
            reportRead(error)
            return
        }
        guard !refused.isEmpty else {
            activity.succeeded(Self.refusedTitlePatternsItem)
            return
        }
        let notes = refused.map { pattern in
            let title = podcasts[pattern.podcastID]?.title ?? pattern.podcastID
            return "The \(pattern.setting) pattern kept for '\(title)' is not in effect: \(pattern.reason)"
                + " Set another with `almanac podcasts settings \(pattern.podcastID) \(pattern.setting) PATTERN`, or '' for none."
        }
        for pattern in refused {
            logger.warning("a kept title pattern is not in effect", metadata: ["podcast": "\(pattern.podcastID)", "setting": "\(pattern.setting)", "why": "\(pattern.reason)"])
        }
        activity.failed(Self.refusedTitlePatternsItem, notes.joined(separator: " "))
    }

    /// The settings among `include`, `exclude` that `submission` sets for `podcastID` in place
    /// of a kept pattern that is not in effect: saved even when the settings are the same
    /// (`""` over a refused one), and the refused one forgotten.
    func refusedTitlePatternsReplaced(by submission: PreferencesSubmission, of podcastID: String) -> Set<String> {
        let named = Set([("include", submission.include), ("exclude", submission.exclude)].compactMap { $0.1 == nil ? nil : $0.0 })
        guard !named.isEmpty else { return [] }
        return Set(((try? archive.refusedTitlePatterns()) ?? []).filter { $0.podcastID == podcastID && named.contains($0.setting) }.map(\.setting))
    }
}
