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
        return DownloadJob(id: id, episodeID: text("Episode"), podcastID: text("Podcast"), url: text("URL"), folder: "", name: "",
                           owner: text("Owner"), state: DownloadState(rawValue: text("State")) ?? .queued,
                           received: number("Received"), total: number("Total"), error: text("Error"), file: text("File"))
    }
}
