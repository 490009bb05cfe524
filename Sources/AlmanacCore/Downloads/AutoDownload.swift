public import AlmanacModels
/// Which of a refresh's new episodes are downloaded by themselves: none unless the podcast
/// has `autoDownload` on; then those with audio that are neither played nor downloaded yet,
/// of a kind it takes (`downloadKinds`: full episodes unless asked; `kinds` holds each
/// episode's, from its feed's `itunes:episodeType`, full where missing), whose title matches
/// its `include` pattern and not its `exclude` one, newest first, at most the podcast's
/// `keep` (all when it keeps every download).
public enum AutoDownload {
    public static func episodes(_ new: [Episode], preferences: PodcastPreferences, kinds: [String: EpisodeKind] = [:]) -> [Episode] {
        guard preferences.autoDownload else { return [] }
        // Compiled once for all the titles; a pattern that does not compile matches no title.
        let include = preferences.include.map { TitlePattern($0) }
        let exclude = preferences.exclude.map { TitlePattern($0) }
        let wanted = new.filter { episode in
            episode.audioURL != nil && episode.file == nil && !episode.played
                && preferences.downloadKinds.contains(kinds[episode.id] ?? .full)
                && include.map { $0?.matches(episode.title) ?? false } ?? true
                && !(exclude.map { $0?.matches(episode.title) ?? false } ?? false)
        }.sorted { ($0.published, $0.id) > ($1.published, $1.id) }
        guard let keep = preferences.keep else { return wanted }
        return Array(wanted.prefix(keep))
    }

    /// Whether `preferences` need the new episodes' kinds to choose (they leave out some kind).
    public static func needsKinds(_ preferences: PodcastPreferences) -> Bool {
        preferences.autoDownload && preferences.downloadKinds != Set(EpisodeKind.allCases)
    }
}
