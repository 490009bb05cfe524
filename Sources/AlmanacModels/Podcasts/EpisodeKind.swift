/// What an episode is by its feed's `itunes:episodeType`: a full episode (also when the feed
/// does not say), a trailer or a bonus. Auto-download takes only the kinds a podcast's
/// `PodcastPreferences.downloadKinds` names (full ones unless asked).
public enum EpisodeKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case full, trailer, bonus

    /// The kind an `itunes:episodeType` value names; `full` for none or any other.
    public init(episodeType: String?) {
        self = episodeType.flatMap { Self(rawValue: $0.lowercased()) } ?? .full
    }

    /// Kinds written as a list ("full,bonus", spaces allowed); `SubmissionError` for an
    /// unknown word or an empty list.
    public static func list(_ text: String) throws -> Set<EpisodeKind> {
        let words = text.split(separator: ",").map { $0.trimmed.lowercased() }.filter { !$0.isEmpty }
        let all = allCases.map(\.rawValue).joined(separator: ", ")
        guard !words.isEmpty else {
            throw SubmissionError("'episodeTypes' names at least one of \(all) (turn auto-download off to download none).")
        }
        return try Set(words.map { word in
            guard let kind = EpisodeKind(rawValue: word) else {
                throw SubmissionError("'episodeTypes' is a list of \(all), such as \"full,bonus\"; not \"\(word.prefix(40))\".")
            }
            return kind
        })
    }

    /// "full,trailer,bonus" order, comma-separated.
    public static func text(_ kinds: Set<EpisodeKind>) -> String {
        kinds.sorted().map(\.rawValue).joined(separator: ",")
    }

    public static func < (lhs: EpisodeKind, rhs: EpisodeKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
