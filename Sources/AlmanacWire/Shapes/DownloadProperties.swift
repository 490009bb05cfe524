public import AlmanacModels
public import DBus

/// A download job's `org.almanac.Download1` properties: `Episode`, `Podcast`, `URL`,
/// `State`, `Received t`, `Total t` (bytes; 0: unknown), `Error` (why it failed, or why the
/// daemon's own job waits), `File`, `Owner`. The daemon sends them all; a client reads
/// those it has heard so far (the rest take a new job's), since they come with
/// `InterfacesAdded` and `PropertiesChanged`.
public struct DownloadProperties: WireShaped, Codable, Sendable, Hashable {
    public typealias Wire = DownloadProperties
    var episode, podcast, url, state: String?
    var received, total: UInt64?
    var error, file, owner: String?

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
        return DownloadJob(id: id, episodeID: episode ?? "", podcastID: podcast ?? "", url: url ?? "", folder: "", name: "", owner: owner ?? "",
                           state: state.flatMap(DownloadState.init(rawValue:)) ?? .queued, received: received ?? 0, total: total ?? 0,
                           error: error ?? "", file: file ?? "")
    }

    /// Each property's name, spelled once in the contract.
    enum CodingKeys: ContractKeys {
        case episode, podcast, url, state, received, total, error, file, owner

        var member: MemberName {
            switch self {
            case .episode: BusContract.Download1.episode.name
            case .podcast: BusContract.Download1.podcast.name
            case .url: BusContract.Download1.url.name
            case .state: BusContract.Download1.state.name
            case .received: BusContract.Download1.received.name
            case .total: BusContract.Download1.total.name
            case .error: BusContract.Download1.error.name
            case .file: BusContract.Download1.file.name
            case .owner: BusContract.Download1.owner.name
            }
        }
    }
}
