public import AlmanacModels
public import DBus

/// The podcasts document on the bus beyond its values' shapes (`PodcastsState.Wire` and the
/// others, `WireCoding`): what a view of one podcast is sent, and what `Submit`,
/// `SetPodcastSettings` and `ListEpisodes` accept.
public enum PodcastsCodec: DocumentCodec {
    /// How many of the newest episodes `GetState` carries; the rest are paged (see docs).
    public static let episodesInState = 50

    /// Reads a podcasts view's options: `{"podcast": <s>}` (its id), or none for all of them
    /// (a client writes them as `PodcastsViewOptions` is shaped). Any id is taken: a view of a
    /// podcast the library lacks hears none of its changes.
    public static func viewOptions(_ values: [String: Value]) throws -> PodcastsViewOptions {
        PodcastsViewOptions(podcast: try OptionsReader.viewOption("podcast", in: values))
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

    /// The state as a view of one podcast (or of all, when it names none) sees it: that
    /// podcast and its episodes in the window.
    public static func snapshot(_ state: PodcastsState, for options: PodcastsViewOptions) throws -> [String: Value] {
        guard let podcast = options.podcast else { return try WireCoding.fields(state) }
        var narrowed = state
        narrowed.podcasts = state.podcasts.filter { $0.key == podcast }
        narrowed.episodes = state.episodes.filter { $0.value.podcastID == podcast }
        narrowed.episodeCount = narrowed.episodes.count
        return try WireCoding.fields(narrowed)
    }

    /// What a view of one podcast (or of all) is told of `change`; `nil` when the change is
    /// not its concern.
    public static func slice(_ change: PodcastsChange, for options: PodcastsViewOptions) throws -> [String: Value]? {
        if let podcast = options.podcast, let concerned = change.podcastID, concerned != podcast { return nil }
        return try WireCoding.fields(change)
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
            _ = try SearchTerms(search)  // its refusal, a SubmissionError, is InvalidArgs
            query.search = search
        }
        return query
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
