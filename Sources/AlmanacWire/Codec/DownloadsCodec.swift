public import AlmanacModels
public import DBus

/// A download job as a client reads it back from `org.almanac.Download1`'s properties.
public enum DownloadsCodec {
    /// The job the properties at `path` describe (its id is the path's last segment).
    public static func decode(path: ObjectPath, _ properties: [String: Value]) -> DownloadJob? {
        guard let id = path.rawValue.split(separator: "/").last.flatMap({ UInt64($0) }) else { return nil }
        func text(_ key: String) -> String { properties[key]?.stringValue ?? "" }
        func number(_ key: String) -> UInt64 {
            if case .uint64(let n)? = properties[key]?.unwrapped { return n }
            return 0
        }
        return DownloadJob(id: id, episodeID: text(BusContract.Download1.episode.rawValue), podcastID: text(BusContract.Download1.podcast.rawValue), url: text(BusContract.Download1.url.rawValue), folder: "", name: "",
                           owner: text(BusContract.Download1.owner.rawValue), state: DownloadState(rawValue: text(BusContract.Download1.state.rawValue)) ?? .queued,
                           received: number(BusContract.Download1.received.rawValue), total: number(BusContract.Download1.total.rawValue), error: text(BusContract.Download1.error.rawValue), file: text(BusContract.Download1.file.rawValue))
    }
}
