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
                state: DownloadState = .queued, received: UInt64 = 0, total: UInt64 = 0, error: String = "", file: String = "",
                validator: String? = nil) {
        self.id = id
        self.episodeID = episodeID
        self.podcastID = podcastID
        self.url = url
        self.folder = folder
        self.name = name
        self.owner = owner
        self.state = state
        self.received = received
        self.total = total
        self.error = error
        self.file = file
        self.validator = validator
    }

    /// The hidden name the bytes are written to until the file is complete.
    /// One of its own per job, so that what a cancelled transfer still writes cannot reach another job's file.
    public var temporaryName: String { ".\(SafeFileName.component(episodeID, fallback: "episode")).\(id).part" }
}
