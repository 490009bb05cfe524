public import AlmanacModels
public import DBus

/// A podcasts view's options as the daemon reads them (`AddView`, `SetOptions`): `{"podcast": <s>}`
/// (its id), or none for all of them (a client writes them as `PodcastsViewOptions` is shaped).
extension PodcastsCodec {
    static let podcastOption = "podcast"

    /// Reads a podcasts view's options strictly: only `podcast`, a string; `InvalidArgs`
    /// otherwise. Any id is taken: a view of a podcast the library lacks hears none of its changes.
    public static func viewOptions(_ values: [String: Value]) throws -> PodcastsViewOptions {
        let reader = try OptionsReader(values, allowed: [podcastOption], what: "view option")
        return PodcastsViewOptions(podcast: try reader.string(podcastOption))
    }
}
