public import AlmanacModels
public import DBus
import FoundationEssentials

/// Podcast models as `a{sv}` and back. Keys are camelCase and stable (docs/bus-api.md).
public enum PodcastsCodec {
    /// How many of the newest episodes `GetState` carries; the rest are paged (see docs).
    public static let episodesInState = 50

    public static func encode(_ podcast: Podcast) -> Value {
        .stringVariantDictionary([
            "id": .string(podcast.id), "title": .string(podcast.title),
            // Never the password of a feed behind HTTP Basic authentication.
            "author": .string(podcast.author), "feedURL": .string(FeedCredentials.redacted(podcast.feedURL)),
        ])
    }

    /// A podcast with its own settings (`settings a{sv}`, as `GetPodcastSettings` gives them):
    /// how the state and `Subscriptions` list it.
    public static func encode(_ podcast: Podcast, preferences: PodcastPreferences) -> Value {
        .stringVariantDictionary([
            "id": .string(podcast.id), "title": .string(podcast.title),
            "author": .string(podcast.author), "feedURL": .string(FeedCredentials.redacted(podcast.feedURL)),
            "settings": encode(preferences),
        ])
    }

    /// A podcast's own settings: `refreshInterval d` (seconds; 0: the server's cadence),
    /// `autoDownload b`, `keep u` (0: every download), `deletePlayedAfter d` (seconds after
    /// playing; 0: never), `notify s` (`default`, `on` or `off`), `autoQueue b`, `skipIntro d`,
    /// `skipOutro d` (seconds; 0: none), `speed d` (0: the player's own),
    /// `include s` and `exclude s` (title patterns; "": none), `episodeTypes s` ("full,bonus").
    public static func encode(_ preferences: PodcastPreferences) -> Value {
        .stringVariantDictionary([
            "refreshInterval": .double(preferences.refreshInterval ?? 0), "autoDownload": .boolean(preferences.autoDownload),
            "keep": .uint32(UInt32(clamping: preferences.keep ?? 0)), "deletePlayedAfter": .double(preferences.deletePlayedAfter ?? 0),
            "notify": .string(PreferencesSubmission.Notify(preferences.notify).rawValue),
            "autoQueue": .boolean(preferences.autoQueue),
            "skipIntro": .double(preferences.skipIntro ?? 0),
            "skipOutro": .double(preferences.skipOutro ?? 0),
            "speed": .double(preferences.speed ?? 0),
            "include": .string(preferences.include ?? ""),
            "exclude": .string(preferences.exclude ?? ""),
            "episodeTypes": .string(EpisodeKind.text(preferences.downloadKinds)),
        ])
    }

    /// A podcast's own settings as `encode` gives them (the defaults where a key is missing or of another type).
    public static func decodePreferences(_ value: Value?) -> PodcastPreferences {
        var preferences = PodcastPreferences()
        guard let fields = value?.stringKeyedEntries else { return preferences }
        func number(_ key: String) -> Double? {
            if case .double(let number)? = fields[key]?.unwrapped { return number }
            return fields[key]?.integerValue.map(Double.init)
        }
        preferences.refreshInterval = number("refreshInterval").flatMap { $0 > 0 ? $0 : nil }
        if case .boolean(let flag)? = fields["autoDownload"]?.unwrapped { preferences.autoDownload = flag }
        preferences.keep = number("keep").flatMap { $0 >= 1 ? Int(min($0, Double(Int32.max))) : nil }
        preferences.deletePlayedAfter = number("deletePlayedAfter").flatMap { $0 > 0 ? $0 : nil }
        preferences.notify = fields["notify"]?.stringValue.flatMap(PreferencesSubmission.Notify.init(rawValue:))?.value
        if case .boolean(let flag)? = fields["autoQueue"]?.unwrapped { preferences.autoQueue = flag }
        preferences.skipIntro = number("skipIntro").flatMap { $0 > 0 ? $0 : nil }
        preferences.skipOutro = number("skipOutro").flatMap { $0 > 0 ? $0 : nil }
        preferences.speed = number("speed").flatMap { $0 > 0 ? $0 : nil }
        preferences.include = fields["include"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        preferences.exclude = fields["exclude"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        if let kinds = fields["episodeTypes"]?.stringValue.flatMap({ try? EpisodeKind.list($0) }) { preferences.downloadKinds = kinds }
        return preferences
    }

    /// Reads `SetPodcastSettings`'s `a{sv}`: any of `refreshInterval` (seconds, 0 for the
    /// server's cadence), `autoDownload` (b), `keep` (0 for all), `deletePlayedAfter`
    /// (seconds, 0 for never), `notify` (`b`, or `s`: `on`, `off`, `default`), `autoQueue` (b),
    /// `include`/`exclude` (s, a title pattern; "" for none), `episodeTypes` (s, "full,bonus").
    /// Values are checked by the core (`PreferencesSubmission.applied`).
    public static func preferencesSubmission(_ values: [String: Value]) throws -> PreferencesSubmission {
        let keys = ["refreshInterval", "autoDownload", "keep", "deletePlayedAfter", "notify",
                    "autoQueue", "skipIntro", "skipOutro", "speed",
                    "include", "exclude", "episodeTypes"]
        let options = try OptionsReader(values, allowed: keys, what: "podcast settings")
        guard !options.isEmpty else {
            throw BusError.invalidArgs("Name at least one podcast setting: \(keys.joined(separator: ", ")).")
        }
        var submission = PreferencesSubmission(refreshInterval: try options.number("refreshInterval"), autoDownload: try options.bool("autoDownload"),
                                               keep: try options.number("keep"), deletePlayedAfter: try options.number("deletePlayedAfter"),
                                               skipIntro: try options.number("skipIntro"), skipOutro: try options.number("skipOutro"), speed: try options.number("speed"))
        submission.autoQueue = try options.bool("autoQueue")
        submission.include = try options.string("include", allowingEmpty: true)
        submission.exclude = try options.string("exclude", allowingEmpty: true)
        submission.episodeTypes = try options.string("episodeTypes")
        switch values["notify"] {
        case nil: break
        case .boolean(let flag)?: submission.notify = flag ? .on : .off
        case .string(let word)?:
            guard let notify = PreferencesSubmission.Notify(rawValue: word) else {
                throw BusError.invalidArgs("'notify' is true or false, or one of the strings \"on\", \"off\", \"default\" (the global setting); not \"\(word.prefix(40))\".")
            }
            submission.notify = notify
        case let other?:
            throw BusError.invalidArgs("'notify' must be a boolean (b) or a string (s), not '\(other.type.signature)'.")
        }
        return submission
    }

    public static func encode(_ episode: Episode) -> Value {
        var fields: [Value.DictionaryEntry] = [
            .init(.string("id"), .variant(.string(episode.id))),
            .init(.string("podcast"), .variant(.string(episode.podcastID))),
            .init(.string("title"), .variant(.string(episode.title))),
            .init(.string("published"), .variant(.int64(episode.publishedSeconds))),
            .init(.string("new"), .variant(.boolean(episode.isNew))),
            .init(.string("played"), .variant(.boolean(episode.played))),
            .init(.string("position"), .variant(.double(episode.position))),
            .init(.string("kept"), .variant(.boolean(episode.kept))),
        ]
        if let duration = episode.duration { fields.append(.init(.string("duration"), .variant(.double(duration)))) }
        if let audioURL = episode.audioURL { fields.append(.init(.string("audioURL"), .variant(.string(audioURL)))) }
        if let file = episode.file { fields.append(.init(.string("file"), .variant(.string(file)))) }
        return .dictionary(key: .string, value: .variant, fields)
    }

    /// A search result (`Podcasts1.Search`): `title`, `author`, `feedURL`, and `episodes u`,
    /// `genre`, `artwork`, `link` when the directory gives them.
    public static func encode(_ result: PodcastSearchResult) -> Value {
        var fields: [String: Value] = ["title": .string(result.title), "author": .string(result.author), "feedURL": .string(result.feedURL)]
        if let count = result.episodeCount { fields["episodes"] = .uint32(UInt32(clamping: count)) }
        if let genre = result.genre { fields["genre"] = .string(genre) }
        if let artwork = result.artworkURL { fields["artwork"] = .string(artwork) }
        if let link = result.pageURL { fields["link"] = .string(link) }
        return fields.asVariantDictionary
    }

    /// A search result as `encode` gives it; `nil` without a feed URL.
    public static func decodeSearchResult(_ fields: [String: Value]) -> PodcastSearchResult? {
        guard let feedURL = fields["feedURL"]?.stringValue else { return nil }
        return PodcastSearchResult(title: fields["title"]?.stringValue ?? feedURL, author: fields["author"]?.stringValue ?? "", feedURL: feedURL,
                                   episodeCount: fields["episodes"]?.integerValue.map { Int($0) }, genre: fields["genre"]?.stringValue,
                                   artworkURL: fields["artwork"]?.stringValue, pageURL: fields["link"]?.stringValue)
    }

    public static func decodePodcast(_ value: Value) -> Podcast? {
        guard let fields = value.stringKeyedEntries, let id = fields["id"]?.stringValue else { return nil }
        return Podcast(id: id, title: fields["title"]?.stringValue ?? id, author: fields["author"]?.stringValue ?? "",
                       feedURL: fields["feedURL"]?.stringValue ?? "")
    }

    public static func decodeEpisode(_ value: Value) -> Episode? {
        guard let fields = value.stringKeyedEntries, let id = fields["id"]?.stringValue else { return nil }
        func double(_ key: String) -> Double? {
            if case .double(let d)? = fields[key]?.unwrapped { return d }
            return fields[key]?.integerValue.map(Double.init)
        }
        return Episode(
            id: id, podcastID: fields["podcast"]?.stringValue ?? "", title: fields["title"]?.stringValue ?? id,
            published: Date(timeIntervalSince1970: double("published") ?? 0), duration: double("duration"),
            isNew: fields["new"]?.unwrapped == .boolean(true), played: fields["played"]?.unwrapped == .boolean(true),
            position: double("position") ?? 0, audioURL: fields["audioURL"]?.stringValue, file: fields["file"]?.stringValue,
            kept: fields["kept"]?.unwrapped == .boolean(true)
        )
    }

    public static func encode(_ state: PodcastsState) -> [String: Value] {
        let newest = state.episodes.values.sorted { ($0.published, $0.id) > ($1.published, $1.id) }.prefix(episodesInState)
        return [
            "podcasts": .array(.dictionary(key: .string, value: .variant), state.podcasts.values.sorted { $0.id < $1.id }.map { encode($0, preferences: state.preferences(of: $0.id)) }),
            "episodes": .array(.dictionary(key: .string, value: .variant), newest.map(encode)),
            "episodeCount": .uint32(UInt32(clamping: state.episodeCount)),
            "settings": encode(state.settings),
            "queue": encode(queue: state.queue),
        ]
    }

    /// The Up Next queue, head first: `aa{sv}` of `episode s`, `podcast s`.
    public static func encode(queue: [QueuedEpisode]) -> Value {
        .array(.dictionary(key: .string, value: .variant), queue.map { entry in
            .stringVariantDictionary(["episode": .string(entry.episodeID), "podcast": .string(entry.podcastID)])
        })
    }

    /// The queue as `encode(queue:)` gives it; `nil` when it is not that (an entry without an episode or podcast).
    public static func decodeQueue(_ value: Value?) -> [QueuedEpisode]? {
        guard case .array(_, let items)? = value?.unwrapped else { return nil }
        let entries = items.compactMap { item -> QueuedEpisode? in
            guard let fields = item.stringKeyedEntries, let episode = fields["episode"]?.stringValue, let podcast = fields["podcast"]?.stringValue else { return nil }
            return QueuedEpisode(episodeID: episode, podcastID: podcast)
        }
        return entries.count == items.count ? entries : nil
    }

    public static func encode(_ settings: PodcastSettings) -> Value {
        .stringVariantDictionary([
            Setting.notify.busKey: .boolean(settings.notify), Setting.deleteWhenPlayed.busKey: .boolean(settings.deleteWhenPlayed),
            Setting.playedAt.busKey: .double(settings.playedAt), "player": .string(settings.player),
            Setting.minimumFreeSpace.busKey: .uint64(settings.minimumFreeSpace), Setting.continuous.busKey: .boolean(settings.continuous),
            Setting.metered.busKey: .string(settings.metered.rawValue), Setting.backupsKept.busKey: .uint32(UInt32(clamping: settings.backupsKept)),
        ])
    }

    public static func decodeSettings(_ value: Value?) -> PodcastSettings {
        var settings = PodcastSettings()
        guard let fields = value?.stringKeyedEntries else { return settings }
        if case .boolean(let notify)? = fields[Setting.notify.busKey]?.unwrapped { settings.notify = notify }
        if case .boolean(let delete)? = fields[Setting.deleteWhenPlayed.busKey]?.unwrapped { settings.deleteWhenPlayed = delete }
        if case .double(let fraction)? = fields[Setting.playedAt.busKey]?.unwrapped { settings.playedAt = fraction }
        if let player = fields["player"]?.stringValue { settings.player = player }
        if case .boolean(let continuous)? = fields[Setting.continuous.busKey]?.unwrapped { settings.continuous = continuous }
        if let bytes = fields[Setting.minimumFreeSpace.busKey]?.integerValue, bytes >= 0 { settings.minimumFreeSpace = UInt64(bytes) }
        if let use = fields[Setting.metered.busKey]?.stringValue.flatMap(MeteredUse.init(rawValue:)) { settings.metered = use }
        if let kept = fields[Setting.backupsKept.busKey]?.integerValue.flatMap({ Int(exactly: $0) }), PodcastSettings.backupsKeptRange ~= kept { settings.backupsKept = kept }
        return settings
    }

    public static func decodeState(_ fields: [String: Value]) -> PodcastsState {
        var state = PodcastsState()
        if case .array(_, let items)? = fields["podcasts"]?.unwrapped {
            for item in items {
                guard let podcast = decodePodcast(item) else { continue }
                state.podcasts[podcast.id] = podcast
                let preferences = decodePreferences(item.stringKeyedEntries?["settings"])
                if !preferences.isDefault { state.preferences[podcast.id] = preferences }
            }
        }
        if case .array(_, let items)? = fields["episodes"]?.unwrapped {
            for episode in items.compactMap(decodeEpisode) { state.episodes[episode.id] = episode }
        }
        state.episodeCount = fields["episodeCount"]?.integerValue.map { Int($0) } ?? state.episodes.count
        state.settings = decodeSettings(fields["settings"])
        state.queue = decodeQueue(fields["queue"]) ?? []
        return state
    }

    /// The state as a view of `podcast` (or of all, when `nil`) sees it: that podcast and its
    /// episodes in the window.
    public static func snapshot(_ state: PodcastsState, forPodcast podcast: String?) -> [String: Value] {
        guard let podcast else { return encode(state) }
        var narrowed = state
        narrowed.podcasts = state.podcasts.filter { $0.key == podcast }
        narrowed.episodes = state.episodes.filter { $0.value.podcastID == podcast }
        narrowed.episodeCount = narrowed.episodes.count
        return encode(narrowed)
    }

    /// What a view watching `podcast` (or all, when `nil`) is told of `change`.
    public static func slice(_ change: PodcastsChange, forPodcast podcast: String?) -> [String: Value]? {
        if let podcast, let concerned = change.podcastID, concerned != podcast { return nil }
        return encode(change)
    }

    /// Reads `ListEpisodes`'s query: `limit` (1–500), `cursor`, `order` ("newest"|"oldest"),
    /// `new`, `unplayed`, `downloaded`, `search` (words in titles and notes).
    public static func query(podcastID: String?, _ values: [String: Value]) throws -> EpisodeQuery {
        let options = try OptionsReader(values, allowed: ["limit", "cursor", "order", "new", "unplayed", "downloaded", "search"], what: "episode query")
        var query = EpisodeQuery(podcastID: podcastID)
        if let limit = try options.number("limit") {
            guard limit >= 1, limit <= Double(EpisodeQuery.maximumLimit), limit == limit.rounded() else {
                throw BusError.invalidArgs("'limit' is a whole number from 1 to \(EpisodeQuery.maximumLimit), not \(limit.echoedText).")
            }
            query.limit = Int(limit)
        }
        query.cursor = try options.string("cursor")
        if let order = try options.string("order") {
            guard let parsed = EpisodeQuery.Order(rawValue: order) else {
                throw BusError.invalidArgs("'order' is \"newest\" or \"oldest\", not \"\(order.prefix(40))\".")
            }
            query.order = parsed
        }
        query.onlyNew = try options.bool("new") ?? false
        query.onlyUnplayed = try options.bool("unplayed") ?? false
        query.onlyDownloaded = try options.bool("downloaded") ?? false
        if let search = try options.string("search") {
            guard search.contains(where: { !$0.isWhitespace }) else {
                throw BusError.invalidArgs("'search' needs at least one word to look for in titles and show notes.")
            }
            do {
                _ = try SearchTerms(search)
            } catch {
                throw BusError.invalidArgs(error.message)
            }
            query.search = search
        }
        return query
    }

    /// `ListEpisodes`'s answer: the page, and `total u` with `nextCursor s` (absent on the last page).
    public static func encode(_ page: EpisodePage) -> (Value, [String: Value]) {
        var info: [String: Value] = ["total": .uint32(UInt32(clamping: page.total))]
        if let next = page.nextCursor { info["nextCursor"] = .string(next) }
        return (.array(.dictionary(key: .string, value: .variant), page.episodes.map(encode)), info)
    }

    /// Reads a `Submit` to the podcasts document: play state (`episode` with `played` and/or
    /// `position`), an episode kept (`episode` with `kept`), or settings (`notify`,
    /// `deleteWhenPlayed`, `playedAt`, `minimumFreeSpace`, `continuous`, `metered`, `backupsKept`), one kind at a time. `player` is
    /// refused: what `episode play` runs is no bus client's to say (docs/security.md). An
    /// edit of the queue: `queueAdd` (with `next`), `queueRemove`, `queueMove` (with `to`),
    /// `queueClear` (`queueSubmission`).
    public static func submission(_ values: [String: Value]) throws -> PodcastsSubmission {
        if values["player"] != nil {
            throw BusError.invalidArgs("'player' is not a setting of almanacd any more: the command `almanac episode play` runs is kept by the CLI, in $XDG_CONFIG_HOME/almanac/cli.conf, and changed with `almanac settings set player COMMAND`. Nothing was changed.")
        }
        let settingKeys = Setting.allCases.filter { $0.section == .podcasts }.map(\.busKey)
        if values["kept"] != nil {
            let options = try OptionsReader(values, allowed: ["episode", "kept"], what: "podcasts submission (an episode kept)")
            guard let episode = try options.string("episode"), let kept = try options.bool("kept") else {
                throw BusError.invalidArgs("Say which episode to keep: {\"episode\": <s>, \"kept\": <b>}.")
            }
            return .kept(episode: episode, kept: kept)
        }
        if let edit = try queueSubmission(values) { return .queue(edit) }
        if values["allPlayed"] != nil {
            let options = try OptionsReader(values, allowed: ["allPlayed", "podcast"], what: "podcasts submission")
            guard try options.bool("allPlayed") == true else { throw BusError.invalidArgs("'allPlayed' can only be true: marking everything unplayed is not offered.") }
            return .allPlayed(podcast: try options.string("podcast"))
        }
        if !values.isEmpty, values.keys.allSatisfy(settingKeys.contains) {
            let options = try OptionsReader(values, allowed: settingKeys, what: "podcasts settings")
            var metered: MeteredUse?
            if let text = try options.string(Setting.metered.busKey) {
                guard let use = MeteredUse(rawValue: text) else {
                    throw BusError.invalidArgs("'metered' is \"allow\" or \"pause\" (auto-downloads wait and feeds are read at most hourly on a metered connection), not '\(text.prefix(100))'. Nothing was changed.")
                }
                metered = use
            }
            return .settings(SettingsSubmission(notify: try options.bool(Setting.notify.busKey), deleteWhenPlayed: try options.bool(Setting.deleteWhenPlayed.busKey),
                                                playedAt: try options.number(Setting.playedAt.busKey),
                                                minimumFreeSpace: try options.number(Setting.minimumFreeSpace.busKey),
                                                continuous: try options.bool(Setting.continuous.busKey), metered: metered,
                                                backupsKept: try options.number(Setting.backupsKept.busKey)))
        }
        let options = try OptionsReader(values, allowed: ["episode", "played", "position"], what: "podcasts submission")
        guard let episode = try options.string("episode") else {
            throw BusError.invalidArgs("Say which episode: {\"episode\": <s>, \"played\": <b>, \"position\": <d>} or {\"episode\": <s>, \"kept\": <b>}, or which settings: {\"notify\": <b>, \"deleteWhenPlayed\": <b>, \"playedAt\": <d>, \"minimumFreeSpace\": <t>, \"continuous\": <b>, \"metered\": <s>, \"backupsKept\": <u>}.")
        }
        return .playState(PlayStateSubmission(episodeID: episode, played: try options.bool("played"), position: try options.number("position"), resumes: true))
    }
}
