import FoundationEssentials

/// Which episodes a list shows and where a page starts: `ListEpisodes`'s query. Pages are
/// keyset-paged: the cursor names the last episode of the previous page, so episodes that
/// arrive meanwhile never shift a page or repeat one.
public struct EpisodeQuery: Sendable, Hashable {
    public enum Order: String, Sendable, Hashable {
        case newest, oldest
    }

    /// Only this podcast's episodes (`nil`: every podcast's).
    public var podcastID: String?
    public var order: Order = .newest
    public var onlyNew = false
    public var onlyUnplayed = false
    /// Only episodes downloaded to this machine (whose `file` is set).
    public var onlyDownloaded = false
    /// At most this many (1…500).
    public var limit = 50
    /// Start after the episode this cursor names (from the previous page).
    public var cursor: String?
    /// Only episodes whose title or show notes (or a kept transcript's segment) hold these
    /// words, read by `SearchTerms`' rules (`"a phrase"`, `OR`, `NOT`, `prefix*`,
    /// `title:word`). The archive applies it, not `matches`.
    public var search: String?

    public static let maximumLimit = 500

    public init(podcastID: String? = nil, order: Order = .newest, onlyNew: Bool = false, onlyUnplayed: Bool = false, limit: Int = 50, cursor: String? = nil) {
        self.podcastID = podcastID
        self.order = order
        self.onlyNew = onlyNew
        self.onlyUnplayed = onlyUnplayed
        self.limit = min(max(limit, 1), Self.maximumLimit)
        self.cursor = cursor
    }

    /// The cursor that continues after `episode`.
    public static func cursor(after episode: Episode) -> String {
        "\(episode.publishedSeconds):\(episode.id)"
    }

    /// Whether `episode` is in the list at all (filters, not the page; not `search`, which
    /// needs the notes the archive keeps).
    public func matches(_ episode: Episode) -> Bool {
        (!onlyDownloaded || episode.file != nil) && (podcastID == nil || episode.podcastID == podcastID) && (!onlyNew || episode.isNew) && (!onlyUnplayed || !episode.played)
    }

    /// Whether `a` comes before `b` in this order (published, then id, so the order is total).
    public func precedes(_ a: Episode, _ b: Episode) -> Bool {
        let ka = (a.publishedSeconds, a.id)
        let kb = (b.publishedSeconds, b.id)
        return order == .newest ? ka > kb : ka < kb
    }

    /// Where the cursor points: the last shown episode's publication second and id; `nil`
    /// without a cursor; `SubmissionError` for a cursor no page handed out.
    public func cursorPosition() throws -> (seconds: Int64, id: String)? {
        guard let cursor else { return nil }
        guard let colon = cursor.firstIndex(of: ":"), let seconds = Int64(cursor[..<colon]) else {
            throw SubmissionError("'\(cursor.prefix(80))' is not a cursor from a previous page; leave it out to start at the beginning.")
        }
        return (seconds, String(cursor[cursor.index(after: colon)...]))
    }

    /// Whether `episode` comes after the cursor's episode; `nil` when the cursor is not one this type made.
    func isAfterCursor(_ episode: Episode) -> Bool? {
        guard let cursor else { return true }
        guard let colon = cursor.firstIndex(of: ":"), let seconds = Int64(cursor[..<colon]) else { return nil }
        let id = String(cursor[cursor.index(after: colon)...])
        let key = (episode.publishedSeconds, episode.id)
        return order == .newest ? key < (seconds, id) : key > (seconds, id)
    }
}
