public import AlmanacModels
public import DBus

/// The podcasts document's changes as `a{sv}` (`Changed`, `Updated`) and back: each kind is
/// spelled once, in `Kind`, for both directions (docs/bus-api.md, "Podcasts changes").
extension PodcastsCodec {
    /// A change's `kind`.
    enum Kind: String, CaseIterable {
        case subscribed, unsubscribed, renamed, newEpisodes, playState, failed, downloaded, settings, podcastSettings, kept, allPlayed, olderEpisodes, queue
    }

    /// A change as `Changed` and `Updated` carry it: its `kind` and that kind's fields.
    public static func encode(_ change: PodcastsChange) -> [String: Value] {
        switch change {
        case .subscribed(let podcast):
            [kindKey: Kind.subscribed.value, "podcast": .string(podcast.id), "subscription": encode(podcast)]
        case .unsubscribed(let podcastID):
            [kindKey: Kind.unsubscribed.value, "podcast": .string(podcastID)]
        case .renamed(let podcast):
            [kindKey: Kind.renamed.value, "podcast": .string(podcast.id), "subscription": encode(podcast)]
        case .newEpisodes(let podcastID, let episodes):
            [kindKey: Kind.newEpisodes.value, "podcast": .string(podcastID),
             "episodes": .array(.dictionary(key: .string, value: .variant), episodes.map(encode))]
        case .playState(let episodeID, let podcastID, let played, let position):
            [kindKey: Kind.playState.value, "episode": .string(episodeID), "podcast": .string(podcastID), "played": .boolean(played), "position": .double(position)]
        case .failed(let podcastID, let message):
            [kindKey: Kind.failed.value, "podcast": .string(podcastID), "error": .string(message)]
        case .downloaded(let episodeID, let podcastID, let file):
            [kindKey: Kind.downloaded.value, "episode": .string(episodeID), "podcast": .string(podcastID), "file": .string(file ?? "")]
        case .settings(let settings):
            [kindKey: Kind.settings.value, "settings": encode(settings)]
        case .podcastSettings(let podcastID, let preferences):
            [kindKey: Kind.podcastSettings.value, "podcast": .string(podcastID), "settings": encode(preferences)]
        case .kept(let episodeID, let podcastID, let kept):
            [kindKey: Kind.kept.value, "episode": .string(episodeID), "podcast": .string(podcastID), "kept": .boolean(kept)]
        case .allPlayed(let podcastID, let count):
            [kindKey: Kind.allPlayed.value, "podcast": .string(podcastID ?? ""), "count": .uint32(UInt32(clamping: count))]
        case .olderEpisodes(let podcastID, let count):
            [kindKey: Kind.olderEpisodes.value, "podcast": .string(podcastID), "count": .uint32(UInt32(clamping: count))]
        case .queue(let queue):
            [kindKey: Kind.queue.value, "queue": encode(queue: queue)]
        }
    }

    /// The change `encode` made, as far as the bus tells it; `nil` for another kind, or a
    /// field missing or of another type. Where the encoding is deliberately lossy, what comes
    /// back is what any client can know: a subscription's feed URL without its password
    /// (`FeedCredentials.redacted`), episodes' publication times in whole seconds, counts
    /// clamped to `u`, and `downloaded`'s `""` or `allPlayed`'s `""` as `nil`.
    public static func decodeChange(_ fields: [String: Value]) -> PodcastsChange? {
        guard let kind = fields[kindKey]?.stringValue.flatMap(Kind.init(rawValue:)) else { return nil }
        let podcast = fields["podcast"]?.stringValue
        let episode = fields["episode"]?.stringValue
        switch kind {
        case .subscribed, .renamed:
            guard let subscription = fields["subscription"].flatMap(decodePodcast) else { return nil }
            return kind == .subscribed ? .subscribed(subscription) : .renamed(subscription)
        case .unsubscribed:
            return podcast.map { .unsubscribed(podcastID: $0) }
        case .newEpisodes:
            guard let podcast, case .array(_, let items)? = fields["episodes"]?.unwrapped else { return nil }
            let episodes = items.compactMap(decodeEpisode)
            return episodes.count == items.count ? .newEpisodes(podcastID: podcast, episodes) : nil
        case .playState:
            guard let episode, let podcast, let played = flag(fields["played"]), let position = number(fields["position"]) else { return nil }
            return .playState(episodeID: episode, podcastID: podcast, played: played, position: position)
        case .failed:
            guard let podcast, let message = fields["error"]?.stringValue else { return nil }
            return .failed(podcastID: podcast, message: message)
        case .downloaded:
            guard let episode, let podcast, let file = fields["file"]?.stringValue else { return nil }
            return .downloaded(episodeID: episode, podcastID: podcast, file: file.isEmpty ? nil : file)
        case .settings:
            guard let settings = fields["settings"], settings.stringKeyedEntries != nil else { return nil }
            return .settings(decodeSettings(settings))
        case .podcastSettings:
            guard let podcast, let settings = fields["settings"], settings.stringKeyedEntries != nil else { return nil }
            return .podcastSettings(podcastID: podcast, decodePreferences(settings))
        case .kept:
            guard let episode, let podcast, let kept = flag(fields["kept"]) else { return nil }
            return .kept(episodeID: episode, podcastID: podcast, kept: kept)
        case .allPlayed:
            guard let podcast, let count = fields["count"]?.integerValue else { return nil }
            return .allPlayed(podcastID: podcast.isEmpty ? nil : podcast, count: Int(clamping: count))
        case .olderEpisodes:
            guard let podcast, let count = fields["count"]?.integerValue else { return nil }
            return .olderEpisodes(podcastID: podcast, count: Int(clamping: count))
        case .queue:
            return decodeQueue(fields["queue"]).map { .queue($0) }
        }
    }

    /// What an `Updated` of a podcasts view says: a change, or its slice again (`resync`), or
    /// a change too large to tell; `nil` for an `a{sv}` that is none of them (a list's `loading`,
    /// `page` and `loadFailed` among them).
    public static func decodeUpdate(_ data: [String: Value]) -> ViewUpdate<PodcastsState, PodcastsChange>? {
        ViewUpdateCodec.decode(data, state: decodeState, change: decodeChange)
    }

    private static var kindKey: String { ViewUpdateCodec.kind }

    /// A number, whatever numeric type it came as; `nil` when it is none.
    private static func number(_ value: Value?) -> Double? {
        if case .double(let number)? = value?.unwrapped { return number }
        return value?.integerValue.map(Double.init)
    }
}

extension PodcastsCodec.Kind {
    var value: Value { .string(rawValue) }
}
