public import AlmanacModels
public import DBus

/// A download job as a client reads it back from `org.almanac.Download1`'s properties.
public enum DownloadsCodec {
    /// The job the properties at `path` describe (its id is the path's last segment).
    public static func decode(path: ObjectPath, _ properties: [String: Value]) -> DownloadJob? {
        guard let id = path.rawValue.split(separator: "/").last.flatMap({ UInt64($0) }) else { return nil }
        func text(_ property: BusProperty<String>) -> String { properties[property] ?? "" }
        return DownloadJob(id: id, episodeID: text(BusContract.Download1.episode), podcastID: text(BusContract.Download1.podcast), url: text(BusContract.Download1.url), folder: "", name: "",
                           owner: text(BusContract.Download1.owner), state: DownloadState(rawValue: text(BusContract.Download1.state)) ?? .queued,
                           received: properties[BusContract.Download1.received] ?? 0, total: properties[BusContract.Download1.total] ?? 0,
                           error: text(BusContract.Download1.error), file: text(BusContract.Download1.file))
    }
}
