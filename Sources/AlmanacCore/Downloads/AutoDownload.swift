public import AlmanacModels
/// Which of a refresh's new episodes are downloaded by themselves: none unless the podcast
/// has `autoDownload` on; then those with audio that are neither played nor downloaded yet,
/// newest first, at most the podcast's `keep` (all when it keeps every download).
public enum AutoDownload {
    public static func episodes(_ new: [Episode], preferences: PodcastPreferences) -> [Episode] {
        guard preferences.autoDownload else { return [] }
        let wanted = new.filter { $0.audioURL != nil && $0.file == nil && !$0.played }
            .sorted { ($0.published, $0.id) > ($1.published, $1.id) }
        guard let keep = preferences.keep else { return wanted }
        return Array(wanted.prefix(keep))
    }
}
