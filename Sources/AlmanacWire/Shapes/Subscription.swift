public import AlmanacModels
public import DBus

/// A podcast with its own settings, as the state's `podcasts` and the `Subscriptions`
/// property list them: the podcast's keys, then `settings a{sv}` (`GetPodcastSettings`'s).
public struct Subscription: WireShaped, Sendable, Hashable {
    public var podcast: Podcast
    public var preferences: PodcastPreferences

    public init(_ podcast: Podcast, preferences: PodcastPreferences) {
        self.podcast = podcast
        self.preferences = preferences
    }

    public struct Wire: Codable, DictionaryTyped {
        @Flattened var podcast: Podcast
        var settings: PodcastPreferences.Wire
    }

    public var wire: Wire { Wire(podcast: podcast.wire, settings: preferences.wire) }

    public init(wire: Wire) throws {
        podcast = wire.podcast
        preferences = PodcastPreferences(wire: wire.settings)
    }
}
