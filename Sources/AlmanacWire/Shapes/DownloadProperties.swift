public import AlmanacModels
public import DBus

/// A download job's `org.almanac.Download1` properties: `Episode`, `Podcast`, `URL`,
/// `State`, `Received t`, `Total t` (bytes; 0: unknown), `Error` (why it failed, or why the
/// daemon's own job waits), `File`, `Owner`. The daemon sends them all; a client reads
/// those it has heard so far (the rest take a new job's), since they come with
/// `InterfacesAdded` and `PropertiesChanged`.
public struct DownloadProperties: PropertiesShape, WireShaped, Hashable {
    public typealias Wire = DownloadProperties
    var episode = "", podcast = "", url = "", state = ""
    var received: UInt64 = 0, total: UInt64 = 0
    var error = "", file = "", owner = ""

    public static let properties: [ShapeProperty<Self>] = [
        .init(BusContract.Download1.episode, \.episode), .init(BusContract.Download1.podcast, \.podcast), .init(BusContract.Download1.url, \.url),
        .init(BusContract.Download1.state, \.state), .init(BusContract.Download1.received, \.received),
        .init(BusContract.Download1.total, \.total), .init(BusContract.Download1.error, \.error), .init(BusContract.Download1.file, \.file),
        .init(BusContract.Download1.owner, \.owner),
    ]

    public static let unheard = DownloadProperties()
}

extension DownloadProperties {
    /// `job`'s properties, its error as the daemon shows it.
    public init(_ job: DownloadJob, error: String) {
        (episode, podcast, url, state) = (job.episodeID, job.podcastID, job.url, job.state.rawValue)
        (received, total) = (job.received, job.total)
        (self.error, file, owner) = (error, job.file, job.owner)
    }

    /// The job they describe, its id the last segment of its object's `path`; `nil` for a
    /// path that is none of a job's.
    public func job(at path: ObjectPath) -> DownloadJob? {
        guard let id = path.rawValue.split(separator: "/").last.flatMap({ UInt64($0) }) else { return nil }
        return DownloadJob(id: id, episodeID: episode, podcastID: podcast, url: url, folder: "", name: "", owner: owner,
                           state: DownloadState(rawValue: state) ?? .queued, received: received, total: total, error: error, file: file)
    }
}
