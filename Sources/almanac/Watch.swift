import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser
import DBus
import Dispatch
import FoundationEssentials
import Glibc
import Locking
import Synchronization

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Registers as a view and prints each update as it arrives, until Ctrl-C.",
        discussion: "When almanacd stops or restarts, watch waits for it and registers again."
    )

    @OptionGroup var scope: Scope
    @OptionGroup var units: UnitsOption
    @OptionGroup var output: OutputOptions<DocumentFields>
    var common: CommonOptions { output.common }

    @Flag(help: "For status bars: one waybar JSON line (text, tooltip, class, alt) per weather update.")
    var waybar = false

    func validate() throws {
        _ = try output.template(fields: DocumentFields.names(for: document.name))
        if waybar && document.name != .weather { throw ValidationError("--waybar goes with 'weather'.") }
        if waybar && common.json { throw ValidationError("Choose either --waybar or --json, not both.") }
    }

    var rendering: Rendering {
        var rendering = output.rendering()
        rendering.waybar = waybar
        return rendering
    }

    var document: DocumentArgument { scope.document }
    var location: String? { scope.location }
    var podcast: String? { scope.podcast }

    /// The view this process holds, so Ctrl-C can remove it.
    static let activeView = Locked<(AlmanacClient, DocumentName, ObjectPath)?>(nil)

    func run() async throws {
        var client = try await common.connect()
        Self.removeViewOnInterrupt()
        let terminal = Terminal()
        var waitingSaid = false
        while true {
            do {
                try await session(client, terminal)
                terminal.notice("almanacd went away; waiting for it to come back…")
            } catch let error as BusError where Self.isUnavailable(error) || !client.connection.isConnected {
                if !waitingSaid { terminal.notice("Waiting for almanacd to start…") }
            } catch let error as BusError {
                throw fail(error)
            }
            waitingSaid = true
            if !client.connection.isConnected {
                // The bus itself went away (a restarted session bus, or dbus.service restarted):
                // connect again when it is back, then wait for the daemon as after a restart.
                terminal.notice("lost the connection to the session bus; waiting for it to come back…")
                await client.connection.close()
                client = await reconnect()
            }
            do {
                try await waitForDaemon(client)
            } catch is BusError where !client.connection.isConnected {
                // The bus went away while waiting: the next turn connects again.
            }
        }
    }

    static func isUnavailable(_ error: BusError) -> Bool {
        [ErrorName.serviceUnknown, .nameHasNoOwner, .noReply, .unknownObject, .unknownMethod].contains(error.name)
            || error.code == .disconnected
    }

    /// Connects to the bus again, trying every 0.1 s at first and then at most every 2 s.
    private func reconnect() async -> AlmanacClient {
        var delay = 0.1
        while true {
            try? await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            if let client = try? await AlmanacClient.connect(address: common.address) { return client }
            delay = min(delay * 2, 2)
        }
    }

    /// The view's options; a podcast given by its feed URL is named by its id, as views are.
    private func viewOptions(_ client: AlmanacClient) async throws -> [String: Value] {
        var options: [String: Value] = [:]
        if let location { options["location"] = .string(location) }
        if let podcast {
            if podcast.contains("://") {
                guard let found = try await client.subscriptions().first(where: { $0.feedURL == podcast }) else {
                    throw CLIError.refused("'\(podcast)' is not a subscribed feed", "`almanac podcasts list` lists the subscriptions")
                }
                options["podcast"] = .string(found.id)
            } else {
                options["podcast"] = .string(podcast)
            }
        }
        return options
    }

    /// One registration with one daemon: returns when that daemon leaves the bus.
    private func session(_ client: AlmanacClient, _ terminal: Terminal) async throws {
        let name = document.name
        let owner = try await client.startDaemon()
        let updates = try await client.updates(of: name, from: owner)
        let properties = try await client.propertyChanges(of: name)
        let departures = try await client.daemonChanges()
        let view = try await client.addView(name, options: try await viewOptions(client))
        Self.activeView.withLock { $0 = (client, name, view) }
        defer { Self.activeView.withLock { $0 = nil } }

        let model = try await Model(client: client, document: name, rendering: rendering, location: location, podcast: podcast, units: units.units?.units)
        let initial = model.initialLines()
        for line in initial { terminal.line(line) }

        let indicator = LoadingIndicator(terminal: terminal, enabled: !rendering.json && !rendering.waybar && rendering.template == nil)
        defer { indicator.loading(false) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [model] in
                var model = model
                var last = initial.joined(separator: "\n")
                var dropped = 0
                var unacknowledged = 0
                for await message in updates {
                    guard message.path == view, message.sender == owner,
                          let (revision, data) = try? message.arguments(UInt64.self, [String: Value].self) else { continue }
                    // Flow control: the daemon hears, every few updates, that they were taken.
                    unacknowledged += 1
                    if unacknowledged >= AlmanacClient.acknowledgeEvery || data["kind"]?.stringValue == "resync" {
                        client.acknowledge(view, upTo: revision)
                        unacknowledged = 0
                    }
                    if updates.droppedCount != dropped {
                        // Output could not keep up and updates were lost: start again from a snapshot.
                        dropped = updates.droppedCount
                        guard let fresh = try? await Model(client: client, document: name, rendering: model.rendering,
                                                           location: model.location, podcast: model.podcast, units: model.unitsOverride) else { continue }
                        model = fresh
                        for line in model.initialLines() { terminal.line(line) }
                    }
                    // GetState already covered this revision (or a newer one).
                    guard revision > model.revision else { continue }
                    // The same reading twice in a row (say, fetched for two views) is shown once.
                    let lines = model.apply(revision: revision, data: data)
                    let text = lines.joined(separator: "\n")
                    guard text != last || model.rendering.json else { continue }
                    last = text
                    for line in lines { terminal.line(line) }
                }
            }
            group.addTask {
                for await message in properties {
                    guard let (_, changed, _) = try? message.arguments(String.self, [String: Value].self, [String].self),
                          case .boolean(let loading)? = changed[BusContract.Document1.loading.rawValue] else { continue }
                    indicator.loading(loading)
                }
            }
            group.addTask {
                for await change in departures where change.oldOwner != nil && change.oldOwner == owner { return }
            }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForDaemon(_ client: AlmanacClient) async throws {
        let changes = try await client.daemonChanges()
        if try await client.daemonOwner() != nil { return }
        for await change in changes where change.newOwner != nil { return }
        // The stream ends when the bus goes away: the caller connects again.
        if !client.connection.isConnected { return }
        throw CLIError.unreachable("the bus stopped telling whether almanacd is there", "start `almanac watch` again")
    }

    /// Ctrl-C (SIGINT) and SIGTERM end a watch the way it is meant to end: the view is removed
    /// (`RemoveView`, waited for at most a second: a stuck daemon must not hold up Ctrl-C, and
    /// the view also goes when the connection closes) and the process exits 0 — as
    /// `journalctl -f` does, and so a shell script running a watch goes on after it.
    private static func removeViewOnInterrupt() {
        // One serial queue: a second signal waits for the first's ending rather than racing it.
        let queue = DispatchQueue(label: "almanac.watch.signals")
        // Not `SIG_IGN` first: Dispatch installs its handler on another thread a moment later,
        // and a Ctrl-C in between was lost for good (the watch ran on; found in a test that
        // hung). Until the handler is there, the default action ends the process (the daemon
        // removes a departed client's views itself); below, we wait for it.
        for number in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if let (client, document, view) = activeView.withLock({ $0 }) {
                    // A Dispatch thread, not the cooperative pool: blocking here is fine.
                    let removed = DispatchSemaphore(value: 0)
                    Task.detached {
                        try? await client.removeView(document, view)
                        removed.signal()
                    }
                    _ = removed.wait(timeout: .now() + 1)
                }
                // Clears a loading indicator left on the line (nothing when there is none).
                Terminal().status("")
                Glibc.exit(0)
            }
            source.resume()
            sources.append(source)
        }
        let giveUp = ContinuousClock.now + .seconds(2)
        for number in [SIGINT, SIGTERM] {
            while ContinuousClock.now < giveUp {
                var action = sigaction()
                sigaction(number, nil, &action)
                if unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) > 1 { break }  // not SIG_DFL, SIG_IGN
                usleep(1000)
            }
        }
    }

    /// Kept alive for the life of the process; written once at start, before any signal.
    nonisolated(unsafe) static var sources: [any DispatchSourceSignal] = []
}

/// What a watcher knows of its document, kept current from `Updated` slices.
struct Model: @unchecked Sendable {
    // @unchecked Sendable: used by one task at a time (the update loop).
    let rendering: Rendering
    let document: DocumentName
    let location: String?
    let podcast: String?
    /// `--units`: shown in these whatever the daemon's setting.
    let unitsOverride: Units?
    var revision: UInt64
    var weather = WeatherState()
    var podcasts = PodcastsState()

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
            weather = WeatherCodec.decodeState(fields)
            if let units { weather.units = units }
        case .podcasts: podcasts = PodcastsCodec.decodeState(fields)
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
            return rendering.episodes(EpisodeListViewData(state: podcasts, podcast: podcast, limit: 5, now: Date(), clockOffset: localUTCOffset), revision: revision)
        }
    }

    /// The weather screen of `location` (`nil`: of every place with a reading).
    private func screen(_ location: String?) -> WeatherScreenViewData {
        WeatherScreenViewData(state: weather, locations: location.map { [$0] }, now: Date(), clockOffset: localUTCOffset)
    }

    /// The newest episodes of `state` this watch shows (of its podcast, or of all).
    private func list(_ state: PodcastsState) -> EpisodeListViewData {
        EpisodeListViewData(state: state, podcast: podcast, limit: 10, now: Date(), clockOffset: localUTCOffset)
    }

    mutating func apply(revision: UInt64, data: [String: Value]) -> [String] {
        self.revision = revision
        let kind = data["kind"]?.stringValue
        if kind == "resync", let state = data["state"]?.stringKeyedEntries {
            // The view fell behind (this watch could not keep up): its whole slice, as at start.
            switch document {
            case .weather:
                weather = WeatherCodec.decodeState(state)
                if let unitsOverride { weather.units = unitsOverride }
            case .podcasts:
                podcasts = PodcastsCodec.decodeState(state)
            }
            return initialLines()
        }
        switch document {
        case .weather:
            switch kind {
            case "reading":
                guard let reading = data["reading"].flatMap(WeatherCodec.decodeReading) else { return [] }
                weather.readings[reading.location] = reading
                weather.failures[reading.location] = nil
                return rendering.weather(screen(reading.location), revision: revision)
            case "failed":
                guard let place = data["location"]?.stringValue else { return [] }
                weather.failures[place] = data["error"]?.stringValue ?? "failed"
                return rendering.weather(screen(place), revision: revision)
            case "units":
                if let units = data["units"]?.stringValue.flatMap(Units.init(rawValue:)) { weather.units = unitsOverride ?? units }
                return rendering.weather(screen(location), revision: revision)
            default:
                return []
            }
        case .podcasts:
            switch kind {
            case "newEpisodes":
                guard case .array(_, let items)? = data["episodes"] else { return [] }
                let new = items.compactMap(PodcastsCodec.decodeEpisode)
                var only = PodcastsState(podcasts: podcasts.podcasts)
                for episode in new {
                    podcasts.episodes[episode.id] = episode
                    only.episodes[episode.id] = episode
                }
                return rendering.episodes(list(only), revision: revision)
            case "playState":
                guard let id = data["episode"]?.stringValue, var episode = podcasts.episodes[id] else { return [] }
                if case .boolean(let played)? = data["played"] { episode.played = played }
                if case .double(let position)? = data["position"] { episode.position = position }
                podcasts.episodes[id] = episode
                return rendering.episodes(list(PodcastsState(podcasts: podcasts.podcasts, episodes: [id: episode])), revision: revision)
            case "subscribed", "renamed":
                guard let podcast = data["subscription"].flatMap(PodcastsCodec.decodePodcast) else { return [] }
                let was = podcasts.podcasts[podcast.id]
                podcasts.podcasts[podcast.id] = podcast
                return rendering.podcastChange(kind == "subscribed" ? .subscribed(podcast) : .renamed(podcast, was: was), revision: revision)
            case "unsubscribed":
                guard let id = data["podcast"]?.stringValue else { return [] }
                let was = podcasts.podcasts.removeValue(forKey: id)
                podcasts.episodes = podcasts.episodes.filter { $0.value.podcastID != id }
                return rendering.podcastChange(.unsubscribed(id, was: was), revision: revision)
            case "failed":
                guard let id = data["podcast"]?.stringValue else { return [] }
                return rendering.podcastChange(.failed(id, podcast: podcasts.podcasts[id], error: data["error"]?.stringValue ?? "failed"), revision: revision)
            case "settings":
                let settings = PodcastsCodec.decodeSettings(data["settings"])
                podcasts.settings = settings
                return rendering.podcastChange(.settings(settings), revision: revision)
            case "allPlayed":
                let id = data["podcast"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                for (key, episode) in podcasts.episodes where id == nil || episode.podcastID == id {
                    podcasts.episodes[key]?.played = true
                    podcasts.episodes[key]?.isNew = false
                }
                return rendering.podcastChange(.allPlayed(id, podcast: id.flatMap { podcasts.podcasts[$0] }, count: Int(data["count"]?.integerValue ?? 0)), revision: revision)
            case "olderEpisodes":
                guard let id = data["podcast"]?.stringValue else { return [] }
                return rendering.podcastChange(.olderEpisodes(id, podcast: podcasts.podcasts[id], count: Int(data["count"]?.integerValue ?? 0)), revision: revision)
            case "podcastSettings":
                guard let id = data["podcast"]?.stringValue else { return [] }
                let preferences = PodcastsCodec.decodePreferences(data["settings"])
                podcasts.preferences[id] = preferences.isDefault ? nil : preferences
                return rendering.podcastChange(.podcastSettings(id, podcast: podcasts.podcasts[id], preferences: preferences), revision: revision)
            case "kept":
                guard let id = data["episode"]?.stringValue else { return [] }
                let kept = data["kept"]?.unwrapped == .boolean(true)
                podcasts.episodes[id]?.kept = kept
                return rendering.podcastChange(.kept(id, episode: podcasts.episodes[id], kept: kept), revision: revision)
            case "downloaded":
                guard let id = data["episode"]?.stringValue, var episode = podcasts.episodes[id] else { return [] }
                episode.file = data["file"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                podcasts.episodes[id] = episode
                return rendering.episodes(list(PodcastsState(podcasts: podcasts.podcasts, episodes: [id: episode])), revision: revision)
            default:
                return []
            }
        }
    }
}
