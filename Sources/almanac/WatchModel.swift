import AlmanacModels
import AlmanacViews
import AlmanacWire
import DBus
import FoundationEssentials

/// What a watcher knows of its document: the state `GetState` gave, kept current by the
/// document's own reducer (`WeatherState.apply`, `PodcastsState.apply`) from the changes each
/// `Updated` carries, and the lines each change shows.
struct WatchModel: Sendable {
    let rendering: Rendering
    let document: DocumentName
    let location: String?
    let podcast: String?
    /// `--units`: shown in these whatever the daemon's setting.
    let unitsOverride: Units?
    var revision: UInt64
    var weather = WeatherState()
    var podcasts = PodcastsState()

    /// One `Updated` of the watched document, decoded.
    enum Update {
        case weather(ViewUpdate<WeatherState, WeatherChange>)
        case podcasts(ViewUpdate<PodcastsState, PodcastsChange>)

        /// The weather change it carries, if it carries one.
        var weatherChange: WeatherChange? {
            if case .weather(.changed(let change)) = self { change } else { nil }
        }

        /// A `resync`: acknowledged at once (flow control).
        var isResync: Bool {
            switch self {
            case .weather(.resynchronised), .podcasts(.resynchronised): true
            default: false
            }
        }

        /// A change too large for a bus message: read the state again.
        var isTooLarge: Bool {
            switch self {
            case .weather(.tooLarge), .podcasts(.tooLarge): true
            default: false
            }
        }
    }

    init(client: AlmanacClient, document: DocumentName, rendering: Rendering, location: String?, podcast: String?, units: Units?) async throws {
        self.rendering = rendering
        self.document = document
        self.location = location
        self.podcast = podcast
        unitsOverride = units
        let (revision, fields) = try await client.state(of: document)
        self.revision = revision
        switch document {
        case .weather:
            weather = try WireCoding.decode(WeatherState.self, fromFields: fields)
            if let units { weather.units = units }
        case .podcasts: podcasts = try WireCoding.decode(PodcastsState.self, fromFields: fields)
        }
    }

    func initialLines() -> [String] {
        switch document {
        case .weather:
            if let location, weather.readings[location] == nil, weather.failures[location] == nil {
                // A notice, not data: on standard error, and never where a status bar reads.
                if !(rendering.json || rendering.waybar || rendering.template != nil) {
                    Terminal.write(2, "\(location): waiting for the first reading…\n")
                }
                return []
            }
            return rendering.weather(screen(location), revision: revision)
        case .podcasts:
            return rendering.episodes(EpisodeListViewData(state: podcasts, podcast: podcast, limit: 5, now: clockNow(), clockOffset: localUTCOffset), revision: revision)
        }
    }

    /// `data`, an `Updated` of this document; `nil` when it is none this watch reads.
    func decode(_ data: [String: Value]) -> Update? {
        switch document {
        case .weather: (try? WireCoding.decode(ViewUpdate<WeatherState, WeatherChange>.self, fromFields: data)).map(Update.weather)
        case .podcasts: (try? WireCoding.decode(ViewUpdate<PodcastsState, PodcastsChange>.self, fromFields: data)).map(Update.podcasts)
        }
    }

    /// Applies `update` at `revision`; the lines it shows.
    mutating func apply(_ update: Update, revision: UInt64) -> [String] {
        self.revision = revision
        switch update {
        case .weather(.resynchronised(let state)):
            // The view fell behind (this watch could not keep up): its whole slice, as at start.
            weather = state
            if let unitsOverride { weather.units = unitsOverride }
            return initialLines()
        case .podcasts(.resynchronised(let state)):
            podcasts = state
            return initialLines()
        case .weather(.changed(.alerts(let location, _, let began, let ended))):
            let before = AlertViewData.list(weather, location: location)
            weather.apply(update.weatherChange!)
            let now = AlertViewData.list(weather, location: location)
            // A status bar gets its line again, with the alert's class.
            if rendering.waybar { return rendering.weather(screen(location), revision: revision) }
            return rendering.alertChange(now.filter { began.contains($0.alert.id) }, ended: before.filter { ended.contains($0.alert.id) },
                                         location: location, revision: revision)
        case .weather(.changed(let change)):
            weather.apply(change)
            if let unitsOverride { weather.units = unitsOverride }
            return lines(change, revision: revision)
        case .podcasts(.changed(let change)):
            let before = podcasts
            podcasts.apply(change)
            return lines(change, before: before, revision: revision)
        case .weather(.tooLarge), .podcasts(.tooLarge):
            return []
        }
    }

    /// The weather screen of `location` (`nil`: of every place with a reading).
    private func screen(_ location: String?) -> WeatherScreenViewData {
        WeatherScreenViewData(state: weather, locations: location.map { [$0] }, now: clockNow(), clockOffset: localUTCOffset)
    }

    /// The newest of `episodes` this watch shows (of its podcast, or of all).
    private func list(_ episodes: [Episode]) -> EpisodeListViewData {
        let only = PodcastsState(podcasts: podcasts.podcasts, episodes: Dictionary(episodes.map { ($0.id, $0) }) { $1 })
        return EpisodeListViewData(state: only, podcast: podcast, limit: 10, now: clockNow(), clockOffset: localUTCOffset)
    }

    /// What a weather change shows: the screen of the place it concerns, or of the watched
    /// place(s) when the units changed; nothing for the saved places, the provider, or places let go.
    private func lines(_ change: WeatherChange, revision: UInt64) -> [String] {
        switch change {
        case .reading(let reading): rendering.weather(screen(reading.location), revision: revision)
        case .failed(let place, _): rendering.weather(screen(place), revision: revision)
        case .units: rendering.weather(screen(location), revision: revision)
        case .provider, .savedLocations, .forgotten, .rainNotify, .weatherAlerts, .alerts: []
        case .windUnit, .precipitationUnit: rendering.weather(screen(location), revision: revision)
        }
    }

    /// What a podcasts change shows, `before` being the state it was applied to: episode rows
    /// for new, played and downloaded episodes, a line for the others.
    private func lines(_ change: PodcastsChange, before: PodcastsState, revision: UInt64) -> [String] {
        let podcastOf = { (id: String?) in id.flatMap { podcasts.podcasts[$0] } }
        switch change {
        case .newEpisodes(_, let new):
            return rendering.episodes(list(new), revision: revision)
        case .playState(let id, _, _, _), .downloaded(let id, _, _):
            guard let episode = podcasts.episodes[id] else { return [] }
            return rendering.episodes(list([episode]), revision: revision)
        case .subscribed(let podcast):
            return rendering.podcastChange(.subscribed(podcast), revision: revision)
        case .renamed(let podcast):
            return rendering.podcastChange(.renamed(podcast, was: before.podcasts[podcast.id]), revision: revision)
        case .unsubscribed(let id):
            return rendering.podcastChange(.unsubscribed(id, was: before.podcasts[id]), revision: revision)
        case .failed(let id, let message):
            return rendering.podcastChange(.failed(id, podcast: podcastOf(id), error: message), revision: revision)
        case .settings(let settings):
            return rendering.podcastChange(.settings(settings), revision: revision)
        case .allPlayed(let id, let count):
            return rendering.podcastChange(.allPlayed(id, podcast: podcastOf(id), count: count), revision: revision)
        case .olderEpisodes(let id, let count):
            return rendering.podcastChange(.olderEpisodes(id, podcast: podcastOf(id), count: count), revision: revision)
        case .podcastSettings(let id, let preferences):
            return rendering.podcastChange(.podcastSettings(id, podcast: podcastOf(id), preferences: preferences), revision: revision)
        case .kept(let id, _, let kept):
            return rendering.podcastChange(.kept(id, episode: podcasts.episodes[id], kept: kept), revision: revision)
        case .queue(let queue):
            return rendering.podcastChange(.queue(queue, episodes: podcasts.episodes), revision: revision)
        }
    }
}
