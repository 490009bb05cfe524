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
        commandName: "watch",
        abstract: "Registers as a view and prints each update as it arrives, until Ctrl-C.",
        discussion: "When almanacd stops or restarts, watch prints a line saying so (--waybar: class error; --format: the template's {{#error}} section; --json: {\"daemon\": \"away\"}), waits for it, and registers and prints again."
    )

    @OptionGroup var scope: Scope
    @OptionGroup var units: UnitsOption
    @OptionGroup var output: OutputOptions<DocumentFields>
    var common: CommonOptions { output.common }

    @Flag(help: "For status bars: one waybar JSON line (text, tooltip, class, alt) per weather or playing update.")
    var waybar = false

    func validate() throws {
        // `error`: what the line says while almanacd is away, for every document.
        let fields = document.playing ? NowPlayingViewData.fieldNames : DocumentFields.names(for: document.name)
        _ = try output.template(fields: fields.contains("error") ? fields : fields + ["error"])
        if waybar && document.name != .weather && !document.playing { throw ValidationError("--waybar goes with 'weather' or 'playing'.") }
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
        // Whether the line saying almanacd is away was printed since the last rendering.
        var awaySaid = false
        var reason = DaemonAwayViewData.Reason.notStarted
        while true {
            do {
                try await session(client, terminal)
                // It rendered, then its daemon left.
                (awaySaid, reason) = (false, .stopped)
            } catch let error as BusError where Self.isUnavailable(error) || !client.connection.isConnected {
                // Not there (yet, or again).
            } catch let error as BusError {
                throw fail(error)
            }
            if !client.connection.isConnected { reason = .busLost }
            if !awaySaid {
                // On standard output, where a status bar reads: the last reading is not shown as current.
                say(DaemonAwayViewData(reason, document: document.playing ? "playing" : document.name.rawValue, location: location), terminal)
                awaySaid = true
            }
            if !client.connection.isConnected {
                // The bus itself went away (a restarted session bus, or dbus.service restarted):
                // connect again when it is back, then wait for the daemon as after a restart.
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

    /// Prints the state line of `away` in this watch's output mode; a status bar's line is
    /// said on standard error too, for a person reading its log.
    private func say(_ away: DaemonAwayViewData, _ terminal: Terminal) {
        let rendering = self.rendering
        if rendering.waybar || rendering.json || rendering.template != nil { terminal.notice(away.line) }
        terminal.line(rendering.away(away))
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

    /// A podcasts view's options; a podcast given by its feed URL is named by its id, as views are.
    private func podcastsViewOptions(_ client: AlmanacClient) async throws -> PodcastsViewOptions {
        guard let podcast, podcast.contains("://") else { return PodcastsViewOptions(podcast: podcast) }
        guard let found = try await client.subscriptions().first(where: { $0.feedURL == podcast }) else {
            throw CLIError.refused("'\(podcast)' is not a subscribed feed", "`almanac podcasts list` lists the subscriptions")
        }
        return PodcastsViewOptions(podcast: found.id)
    }

    /// One registration with one daemon: returns when that daemon leaves the bus.
    private func session(_ client: AlmanacClient, _ terminal: Terminal) async throws {
        if document.playing { return try await WatchPlaying(client: client, rendering: rendering).run(terminal) }
        let name = document.name
        let owner = try await client.startDaemon()
        let updates = try await client.updates(of: name, from: owner)
        let properties = try await client.propertyChanges(of: name)
        let departures = try await client.daemonChanges()
        let view = switch name {
        case .weather: try await client.addView(WeatherViewOptions(location: location))
        case .podcasts: try await client.addView(try await podcastsViewOptions(client))
        }
        Self.activeView.withLock { $0 = (client, name, view) }
        defer { Self.activeView.withLock { $0 = nil } }

        let model = try await WatchModel(client: client, document: name, rendering: rendering, location: location, podcast: podcast, units: units.units?.units)
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
                /// Starts again from a snapshot (`GetState`), as at the start.
                func startAgain() async {
                    guard let fresh = try? await WatchModel(client: client, document: name, rendering: model.rendering,
                                                            location: model.location, podcast: model.podcast, units: model.unitsOverride) else { return }
                    model = fresh
                    for line in model.initialLines() { terminal.line(line) }
                }
                for await message in updates {
                    guard message.path == view, message.sender == owner,
                          let (revision, data) = try? BusContract.View1.updated.values(of: message) else { continue }
                    let update = model.decode(data)
                    // Flow control: the daemon hears, every few updates, that they were taken.
                    unacknowledged += 1
                    if unacknowledged >= AlmanacClient.acknowledgeEvery || update?.isResync == true {
                        client.acknowledge(view, upTo: revision)
                        unacknowledged = 0
                    }
                    if updates.droppedCount != dropped {
                        // Output could not keep up and updates were lost: start again from a snapshot.
                        dropped = updates.droppedCount
                        await startAgain()
                    }
                    // GetState already covered this revision (or a newer one).
                    guard revision > model.revision, let update else { continue }
                    guard !update.isTooLarge else {
                        // A change too large for a message: its details are only in the state.
                        await startAgain()
                        continue
                    }
                    // The same reading twice in a row (say, fetched for two views) is shown once.
                    let lines = model.apply(update, revision: revision)
                    let text = lines.joined(separator: "\n")
                    guard text != last || model.rendering.json else { continue }
                    last = text
                    for line in lines { terminal.line(line) }
                }
            }
            group.addTask {
                for await message in properties {
                    guard let (_, changed, _) = try? BusSignal.propertiesChanged.values(of: message),
                          let loading = changed[BusContract.Document1.loading] else { continue }
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
