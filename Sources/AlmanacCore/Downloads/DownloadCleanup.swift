public import FoundationEssentials
public import AlmanacModels

/// Which downloaded files a cleanup deletes, and why: a pure rule over the downloads, their
/// play state, the user's kept marks, what media players have open, and the time.
///
/// Per podcast (its `PodcastPreferences`):
/// - **keep N**: only its N newest downloads (by publication) stay; older ones go. Episodes
///   the user kept are set aside first: they neither count nor go.
/// - **delete played after D**: a played episode's download goes D seconds after it was marked
///   played (`deletePlayedAfter`, else 0 when the global `deleteWhenPlayed` is on). One played
///   before its time was noted is deleted only when D is 0.
///
/// Never deleted: a kept episode's file, and a file a media player has open (it is *spared*,
/// and looked at again within `retryWhileInUse`).
public enum DownloadCleanup {
    /// One downloaded episode, as the rule sees it.
    public struct Download: Sendable, Hashable {
        public var episodeID: String
        public var podcastID: String
        public var file: String
        public var published: Date
        public var played: Bool
        /// When it was marked played, when known.
        public var playedAt: Date?
        /// The user kept it (`almanac episode keep`).
        public var kept: Bool

        public init(episodeID: String, podcastID: String, file: String, published: Date, played: Bool, playedAt: Date?, kept: Bool) {
            self.episodeID = episodeID
            self.podcastID = podcastID
            self.file = file
            self.published = published
            self.played = played
            self.playedAt = playedAt
            self.kept = kept
        }

        /// A downloaded episode (`nil` without a file) and when it was marked played.
        public init?(_ episode: Episode, playedAt: Date?) {
            guard let file = episode.file else { return nil }
            self.init(episodeID: episode.id, podcastID: episode.podcastID, file: file, published: episode.published,
                      played: episode.played, playedAt: playedAt, kept: episode.kept)
        }
    }

    /// Why a file goes.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// Beyond the podcast's newest `keep` downloads.
        case beyondKeep(Int)
        /// Played, and `after` seconds (0: at once) have passed since.
        case played(after: Double)

        public var description: String {
            switch self {
            case .beyondKeep(let count): "only the newest \(count) download\(count == 1 ? "" : "s") of its podcast are kept"
            case .played(let after) where after <= 0: "it was played"
            case .played(let after): "it was played more than \(DownloadCleanup.span(after)) ago"
            }
        }
    }

    /// A file the rule says goes.
    public struct Deletion: Sendable, Hashable {
        public var episodeID: String
        public var podcastID: String
        public var file: String
        public var reason: Reason

        public init(episodeID: String, podcastID: String, file: String, reason: Reason) {
            self.episodeID = episodeID
            self.podcastID = podcastID
            self.file = file
            self.reason = reason
        }
    }

    /// What a cleanup does now, and when to look again.
    public struct Plan: Sendable, Hashable {
        /// The files to delete now, by path.
        public var deletions: [Deletion] = []
        /// Files that would go but a media player has open: not deleted now.
        public var spared: [Deletion] = []
        /// When the next file falls due (a played one's delay ends), or, while files are
        /// spared, `retryWhileInUse` from now, whichever is first; `nil`: nothing could go
        /// later unless something changes (nothing to wait for).
        public var nextPass: Date?

        public init(deletions: [Deletion] = [], spared: [Deletion] = [], nextPass: Date? = nil) {
            self.deletions = deletions
            self.spared = spared
            self.nextPass = nextPass
        }
    }

    /// How soon a file spared because a player had it open is looked at again (unless the
    /// player says sooner that it moved on): an hour.
    public static let retryWhileInUse: Double = 3_600

    /// The plan for `downloads` at `now`. `preferences`: each podcast's own settings (absent:
    /// the defaults); `deleteWhenPlayed`: the global setting; `inUse`: the paths media players
    /// have open.
    public static func plan(_ downloads: [Download], preferences: [String: PodcastPreferences], deleteWhenPlayed: Bool,
                            inUse: Set<String>, now: Date) -> Plan {
        var plan = Plan()
        var due: [Deletion] = []
        let byPodcast = Dictionary(grouping: downloads.filter { !$0.kept }, by: \.podcastID)
        for podcastID in byPodcast.keys.sorted() {
            let settings = preferences[podcastID] ?? PodcastPreferences()
            let delay = settings.deletionDelay(deleteWhenPlayed: deleteWhenPlayed)
            let newestFirst = byPodcast[podcastID, default: []].sorted { ($0.published, $0.episodeID) > ($1.published, $1.episodeID) }
            for (index, download) in newestFirst.enumerated() {
                let deletion = { (reason: Reason) in Deletion(episodeID: download.episodeID, podcastID: podcastID, file: download.file, reason: reason) }
                if let keep = settings.keep, index >= keep {
                    due.append(deletion(.beyondKeep(keep)))
                    continue
                }
                guard let delay, download.played else { continue }
                guard let playedAt = download.playedAt else {
                    if delay <= 0 { due.append(deletion(.played(after: delay))) }
                    continue
                }
                let deadline = playedAt.addingTimeInterval(delay)
                if deadline <= now {
                    due.append(deletion(.played(after: delay)))
                } else {
                    plan.nextPass = min(plan.nextPass ?? deadline, deadline)
                }
            }
        }
        for deletion in due.sorted(by: { $0.file < $1.file }) {
            if inUse.contains(deletion.file) { plan.spared.append(deletion) } else { plan.deletions.append(deletion) }
        }
        if !plan.spared.isEmpty {
            let retry = now.addingTimeInterval(retryWhileInUse)
            plan.nextPass = min(plan.nextPass ?? retry, retry)
        }
        return plan
    }

    /// "7 days", "3 hours", "10 minutes", "45 seconds": the largest unit that is whole or more.
    static func span(_ seconds: Double) -> String {
        let units: [(Double, String)] = [(86_400, "day"), (3_600, "hour"), (60, "minute"), (1, "second")]
        let (size, name) = units.first { seconds >= $0.0 } ?? (1, "second")
        let count = Int((seconds / size).rounded())
        return "\(count) \(name)\(count == 1 ? "" : "s")"
    }
}
