public import AlmanacModels
public import DBus

/// A podcasts view's options (`AddView`, `SetOptions`, the `Options` property) both ways:
/// `{"podcast": <s>}` (its id), or none for all of them.
extension PodcastsCodec {
    static let podcastOption = "podcast"

    /// Reads a podcasts view's options strictly: only `podcast`, a string; `InvalidArgs`
    /// otherwise. Any id is taken: a view of a podcast the library lacks hears none of its changes.
    public static func viewOptions(_ values: [String: Value]) throws -> PodcastsViewOptions {
        let reader = try OptionsReader(values, allowed: [podcastOption], what: "view option")
        return PodcastsViewOptions(podcast: try reader.string(podcastOption))
    }

    /// The options as `AddView` takes them (none for a view of all podcasts).
    public static func encode(_ options: PodcastsViewOptions) -> [String: Value] {
        options.podcast.map { [podcastOption: .string($0)] } ?? [:]
    }
}
