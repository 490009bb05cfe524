import Locking
import AlmanacModels

extension PodcastsDocument {
    /// The library as the archive holds it: the state the document starts from, and the feeds
    /// that were backing off.
    struct Kept: Sendable {
        let state: PodcastsState
        let backoffs: [String: FeedBackoff]
    }

    /// Reads the library from the archive (on the owner, during a restore); `StorageError`
    /// when it cannot be read.
    func keptState() throws -> Kept {
        Kept(state: try archive.podcastsState(), backoffs: try archive.backoffs())
    }

    /// On the owner, the library restored from a backup: the document becomes what the archive
    /// now holds, as at a start — every feed due (its episodes since the backup are read in),
    /// those the backup had backing off going on backing off — and every view hears the whole
    /// state. Failures of podcasts no longer subscribed leave `LastError`.
    func restored(_ kept: Kept) {
        feeds.withLock { $0.restart(backoffs: kept.backoffs) }
        activity.keep(only: Set(kept.state.podcasts.keys).union([PodcastSync.activityItem]))
        document.replace(with: kept.state)
        scheduleChanged()
    }
}
