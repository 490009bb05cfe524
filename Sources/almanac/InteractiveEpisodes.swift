import AlmanacWire
import AlmanacModels
import AlmanacViews
import DBus
import Dispatch
import FoundationEssentials
import Glibc

/// `almanac episodes` on a terminal: a podcasts view of the daemon, paged with its
/// `LoadMore`/`RefreshList`, shown full screen and kept live by its `Updated` signals. The
/// list's state and its lines are `EpisodeListState`'s (AlmanacViews); this is the terminal
/// (raw mode, the alternate screen, keys, SIGWINCH) and the bus.
struct InteractiveEpisodes {
    let client: AlmanacClient
    let podcast: String?

    enum Event: Sendable {
        case key(Key)
        case updated(UInt64, [String: Value])
        case resized
        /// A `LoadMore`/`RefreshList` answered `started` false, or failed (its text).
        case refused(refresh: Bool, error: String?)
        case said(String)
        case daemonGone
    }

    enum Key: Sendable, Equatable {
        case up, down, pageUp, pageDown, home, end, space, character(Character), quit
    }

    func run() async throws {
        let owner = try await client.startDaemon()
        let updates = try await client.updates(of: .podcasts, from: owner)
        let departures = try await client.daemonChanges()
        let subscriptions = try await client.subscriptions()
        var podcastID: String?
        if let podcast, !podcast.isEmpty {
            guard let found = subscriptions.first(where: { $0.id == podcast || $0.feedURL == podcast }) else {
                throw CLIError.refused("'\(podcast)' is not a subscribed podcast", "`almanac podcasts list` lists the subscriptions")
            }
            podcastID = found.id
        }
        let view = try await client.addView(PodcastsViewOptions(podcast: podcastID))
        defer { client.removeViewWithoutWaiting(.podcasts, view) }

        let (events, sink) = AsyncStream<Event>.makeStream(bufferingPolicy: .unbounded)
        let screen = try RawScreen()
        defer { screen.restore() }
        screen.readKeys { sink.yield(.key($0)) }
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .global())
        signal(SIGWINCH, SIG_IGN)
        resize.setEventHandler { sink.yield(.resized) }
        resize.resume()
        defer { resize.cancel() }
        let listening = Task {
            for await message in updates {
                guard message.path == view, let (revision, data) = try? BusContract.View1.updated.values(of: message) else { continue }
                sink.yield(.updated(revision, data))
            }
        }
        let leaving = Task {
            for await change in departures where change.oldOwner == owner { sink.yield(.daemonGone); return }
        }
        defer { listening.cancel(); leaving.cancel() }
        try await showList(events, sink: sink, screen: screen, view: view, subscriptions: subscriptions, podcastID: podcastID)
    }

    /// The list's loop: pages loaded one at a time, keys acted on, updates applied and
    /// acknowledged, until a quit key or the daemon leaves.
    private func showList(
        _ events: AsyncStream<Event>, sink: AsyncStream<Event>.Continuation, screen: RawScreen,
        view: ObjectPath, subscriptions: [Podcast], podcastID: String?
    ) async throws {
        var state = EpisodeListState(podcasts: Dictionary(subscriptions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }),
                                     podcastID: podcastID)
        /// A refresh asked for while a page loads: sent when it has come (one load at a time).
        var refreshQueued = false
        /// Updates taken since the last `Ack`.
        var unacknowledged = 0
        let client = client
        func load(refresh: Bool) {
            state.loadStarted(refresh: refresh)
            Task {
                do {
                    let started = refresh ? try await client.refreshList(view) : try await client.loadMore(view)
                    if !started { sink.yield(.refused(refresh: refresh, error: nil)) }
                } catch {
                    sink.yield(.refused(refresh: refresh, error: "\(error)"))
                }
            }
        }

        load(refresh: false)
        screen.draw(state)
        for await event in events {
            let height = screen.size.height
            switch event {
            case .key(let key):
                state.message = nil
                switch pressed(key, state: &state, height: height) {
                case .nothing: break
                case .quit: return
                case .loadMore: load(refresh: false)
                case .refresh:
                    if state.isLoading { refreshQueued = true } else { load(refresh: true) }
                case .submit(let episode, let change, let done): submit(episode, change, done, sink: sink)
                case .download(let episode): download(episode, sink: sink)
                }
            case .updated(let revision, let data):
                // Flow control: every few updates, the daemon hears they were taken.
                unacknowledged += 1
                if unacknowledged >= AlmanacClient.acknowledgeEvery {
                    client.acknowledge(view, upTo: revision)
                    unacknowledged = 0
                }
                if case .resynchronised(let resynced)? = try? WireCoding.decode(ViewUpdate<PodcastsState, PodcastsChange>.self, fromFields: data) {
                    // This list fell behind the library's changes: it loads its first page again.
                    client.acknowledge(view, upTo: revision)
                    unacknowledged = 0
                    state.podcasts.merge(resynced.podcasts) { $1 }
                    if state.isLoading { refreshQueued = true } else { load(refresh: true) }
                }
                apply(data, to: &state)
                if !state.isLoading, refreshQueued {
                    refreshQueued = false
                    load(refresh: true)
                }
            case .refused(let refresh, let error):
                state.loadFailed(refresh: refresh, message: error ?? "the daemon is busy with this list")
                if error == nil { state.message = nil }
            case .said(let text):
                state.message = text
            case .resized:
                break
            case .daemonGone:
                screen.restore()
                throw CLIError.unreachable("almanacd left the bus", "start `almanac episodes` again")
            }
            state.scroll(height: screen.size.height)
            screen.draw(state)
        }
    }

    /// What a key asks of the list's loop, once it has moved the selection.
    private enum KeyAction {
        case nothing, quit, loadMore, refresh
        case submit(Episode, [String: Value], String)
        case download(Episode)
    }

    /// Moves the selection for `key` and says what else it asks for.
    private func pressed(_ key: Key, state: inout EpisodeListState, height: Int) -> KeyAction {
        switch key {
        case .quit, .character("q"): return .quit
        case .up, .character("k"): state.move(.up, height: height)
        case .down, .character("j"):
            if state.move(.down, height: height), state.canLoadMore { return .loadMore }
        case .pageUp: state.move(.pageUp, height: height)
        case .pageDown, .space:
            if state.move(.pageDown, height: height), state.canLoadMore { return .loadMore }
        case .home, .character("g"): state.move(.top, height: height)
        case .end, .character("G"):
            if state.move(.bottom, height: height), state.canLoadMore { return .loadMore }
        case .character("m"): if state.canLoadMore { return .loadMore }
        case .character("r"): return .refresh
        case .character("p"):
            if let episode = state.selectedEpisode { return .submit(episode, ["played": .boolean(true)], "Marked “\(episode.title)” played.") }
        case .character("u"):
            if let episode = state.selectedEpisode {
                return .submit(episode, ["played": .boolean(false), "position": .double(0)], "Marked “\(episode.title)” unplayed.")
            }
        case .character("d"):
            if let episode = state.selectedEpisode { return .download(episode) }
        default: break
        }
        return .nothing
    }

    /// Changes `episode` through the daemon's `Submit`; the list says how it went.
    private func submit(_ episode: Episode, _ change: [String: Value], _ done: String, sink: AsyncStream<Event>.Continuation) {
        let client = client
        Task {
            do {
                _ = try await client.submit(.podcasts, ["episode": .string(episode.id)].merging(change) { $1 })
                sink.yield(.said(done))
            } catch {
                sink.yield(.said("Could not change “\(episode.title)”: \(error)"))
            }
        }
    }

    /// Asks the daemon to download `episode`; the list says how it went.
    private func download(_ episode: Episode, sink: AsyncStream<Event>.Continuation) {
        let client = client
        Task {
            do {
                _ = try await client.download(episode.id)
                sink.yield(.said("Downloading “\(episode.title)”…"))
            } catch {
                sink.yield(.said("Could not download “\(episode.title)”: \(error)"))
            }
        }
    }

    /// An `Updated` of the view: a step of its list's load, or a change to the podcasts.
    private func apply(_ data: [String: Value], to state: inout EpisodeListState) {
        switch try? WireCoding.decode(PagingEvent<Value>.self, fromFields: data) {
        case .loading(let refresh)?:
            state.loadStarted(refresh: refresh)
        case .loaded(let refresh, let items, let hasMore)?:
            state.pageLoaded(refresh: refresh, items: items.compactMap { try? WireCoding.decode(Episode.self, from: $0) }, hasMore: hasMore)
        case .failed(let refresh, let message)?:
            state.loadFailed(refresh: refresh, message: message)
        case nil:
            if let change = try? WireCoding.decode(PodcastsChange.self, fromFields: data) { state.apply(change) }
        }
    }
}

/// The terminal in raw mode on the alternate screen, restored once (`restore`); frames are
/// written whole, each line cleared to its end, so nothing flickers. Not `Sendable`: only the
/// list's task draws and restores it (the keys' thread has only the key parser).
final class RawScreen {
    private var original = termios()
    private var restored = false
    private var lastFrame = ""
    private let terminal = Terminal()

    init() throws {
        guard tcgetattr(STDIN_FILENO, &original) == 0 else {
            throw CLIError.usage("standard input is not a terminal", "use `almanac episodes --page 1` in a script")
        }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        raw.c_cc.6 = 1 // VMIN
        raw.c_cc.5 = 0 // VTIME
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
        Terminal.write(STDOUT_FILENO, "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    var size: (width: Int, height: Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 { return (Int(size.ws_col), Int(size.ws_row)) }
        return (80, 24)
    }

    func draw(_ state: EpisodeListState) {
        let (width, height) = size
        let lines = state.screen(width: width, height: height, now: clockNow())
        let frame = "\u{1B}[H" + lines.map { terminal.render($0) + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J"
        guard frame != lastFrame else { return }
        lastFrame = frame
        Terminal.write(STDOUT_FILENO, frame)
    }

    func restore() {
        guard !restored else { return }
        restored = true
        Terminal.write(STDOUT_FILENO, "\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    }

    /// Reads keys on a thread of its own until standard input ends (then `quit`).
    func readKeys(_ key: @escaping @Sendable (InteractiveEpisodes.Key) -> Void) {
        DispatchQueue(label: "almanac.keys").async {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 64)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count <= 0 { key(.quit); return }
                pending += buffer[..<count]
                while !pending.isEmpty {
                    let (parsed, used) = Self.parse(pending)
                    if used == 0 { break }
                    pending.removeFirst(used)
                    if let parsed { key(parsed) }
                }
            }
        }
    }

    /// The key at the start of `bytes` and how many bytes it took (0: more are needed).
    static func parse(_ bytes: [UInt8]) -> (InteractiveEpisodes.Key?, Int) {
        guard let first = bytes.first else { return (nil, 0) }
        switch first {
        case 0x03, 0x04: return (.quit, 1)
        case 0x20: return (.space, 1)
        case 0x1B:
            guard bytes.count >= 2 else { return (.quit, 1) }
            guard bytes[1] == 0x5B || bytes[1] == 0x4F else { return (nil, 1) }
            guard bytes.count >= 3 else { return (nil, 0) }
            switch bytes[2] {
            case 0x41: return (.up, 3)
            case 0x42: return (.down, 3)
            case 0x48: return (.home, 3)
            case 0x46: return (.end, 3)
            case 0x35, 0x36, 0x31, 0x34:
                guard bytes.count >= 4 else { return (nil, 0) }
                let key: InteractiveEpisodes.Key? = switch bytes[2] {
                case 0x35: .pageUp
                case 0x36: .pageDown
                case 0x31: .home
                default: .end
                }
                return (bytes[3] == 0x7E ? key : nil, 4)
            default: return (nil, 3)
            }
        default:
            let scalar = Unicode.Scalar(first)
            return (first < 0x80 ? .character(Character(scalar)) : nil, 1)
        }
    }
}
