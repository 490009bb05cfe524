/// One episode being downloaded: what, for whom, how far.
public struct DownloadJob: Sendable, Hashable, Codable {
    /// Numbers jobs for as long as the state folder lives (the bus path ends in it).
    public var id: UInt64
    public var episodeID: String
    public var podcastID: String
    /// The enclosure's URL.
    public var url: String
    /// The folder the file goes into.
    public var folder: String
    /// The file's name without extension (made safe; the extension comes from the server).
    public var name: String
    /// The unique bus name of the client that asked ("" when it has left, or after a restart).
    public var owner: String
    /// The daemon's own download of a new episode (auto-download), which a metered connection
    /// holds back while queued; `false` once a client asks for the episode.
    public var auto: Bool
    public var state: DownloadState
    public var received: UInt64
    /// The whole size when the server said (0 when it did not).
    public var total: UInt64
    /// Why it failed (empty unless `failed`).
    public var error: String
    /// The final file's path once `completed`.
    public var file: String
    /// The server's validator (`ETag` or `Last-Modified`) of the bytes received so far, so a
    /// resumed download asks for the rest of the same file (`If-Range`).
    public var validator: String?

    public init(id: UInt64, episodeID: String, podcastID: String, url: String, folder: String, name: String, owner: String,
                auto: Bool = false, state: DownloadState = .queued, received: UInt64 = 0, total: UInt64 = 0, error: String = "", file: String = "",
                validator: String? = nil) {
        self.id = id
        self.episodeID = episodeID
        self.podcastID = podcastID
        self.url = url
        self.folder = folder
        self.name = name
        self.owner = owner
        self.auto = auto
        self.state = state
        self.received = received
        self.total = total
        self.error = error
        self.file = file
        self.validator = validator
    }

    /// Reads a kept job. One kept before jobs knew their origin has no `auto`: it was the
    /// daemon's own when it waited queued with a reason (the hold's text, its marker then).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UInt64.self, forKey: .id)
        episodeID = try container.decode(String.self, forKey: .episodeID)
        podcastID = try container.decode(String.self, forKey: .podcastID)
        url = try container.decode(String.self, forKey: .url)
        folder = try container.decode(String.self, forKey: .folder)
        name = try container.decode(String.self, forKey: .name)
        owner = try container.decode(String.self, forKey: .owner)
        state = try container.decode(DownloadState.self, forKey: .state)
        received = try container.decode(UInt64.self, forKey: .received)
        total = try container.decode(UInt64.self, forKey: .total)
        error = try container.decode(String.self, forKey: .error)
        file = try container.decode(String.self, forKey: .file)
        validator = try container.decodeIfPresent(String.self, forKey: .validator)
        auto = try container.decodeIfPresent(Bool.self, forKey: .auto) ?? (state == .queued && !error.isEmpty)
    }

    /// The hidden name the bytes are written to until the file is complete.
    /// One of its own per job, so that what a cancelled transfer still writes cannot reach another job's file.
    public var temporaryName: String { ".\(SafeFileName.component(episodeID, fallback: "episode")).\(id).part" }
}
