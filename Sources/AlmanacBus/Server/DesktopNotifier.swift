public import AlmanacCore
import AlmanacModels
public import DBus
import Locking
public import Logging
import Synchronization

/// Desktop notifications of new episodes, when the user turned them on (`notify`, or a
/// podcast's own `notify`, which wins for its episodes): the
/// changes one refresh brings are gathered into one notification that names each feed and
/// its count (newsboat's `notify-format` is the model), sent to
/// `org.freedesktop.Notifications` and replacing the one before. A refresh of many feeds
/// is one notification as long as its feeds' news comes less than the gathering window
/// apart (up to ten windows in all). When the server
/// advertises `actions`, the notification offers "Download", which downloads those episodes,
/// and "Add to Up Next", which adds them at the end of the queue.
public final class DesktopNotifier: Service {
    static let viewKey = ViewKey("almanacd:notifications")

    private struct State {
        /// New episodes not yet announced, by podcast, in the order they came.
        var pending: [(podcastID: String, episodes: [String])] = []
        /// When the last new episodes came, and when the first of those pending came: a flush
        /// waits until none came for the gathering window (at most ten windows in all).
        var lastArrival = RealTime.now
        var firstArrival = RealTime.now
        /// A flush is waiting or under way (one at a time, so each replaces the one before).
        var flushScheduled = false
        /// The notification to replace next (0: none yet).
        var lastID: UInt32 = 0
        /// The unique name of the server that answered, the only one whose signals count.
        var server: BusName?
        /// Each shown notification's episodes, for its "Download" and "Add to Up Next" actions.
        var actions: [UInt32: [String]] = [:]
        /// The notification server's signals, from `prepare` until `run` reads them.
        var signals: SignalStream?
    }

    private let podcasts: PodcastsDocument
    private let connection: Connection
    private let downloads: DownloadManager?
    private let gathering: Duration
    private let wording: Wording
    private let logger: Logger
    private let state = Locked(State())
    /// Woken when news waits to be shown.
    private let flushWanted = Wakeup()

    /// The summary and body of a notification, as plain text: each feed's title and count.
    public typealias Wording = @Sendable (_ feeds: [(title: String, count: Int)]) -> (summary: String, body: String)

    /// - Parameters:
    ///   - gathering: how long after the first new episode others are waited for, so that one
    ///     refresh of many feeds gives one notification.
    ///   - wording: the words (AlmanacViews' `NewEpisodesNotice`, which this layer does not see).
    public init(podcasts: PodcastsDocument, connection: Connection, downloads: DownloadManager?,
                gathering: Duration = .seconds(2), wording: @escaping Wording, logger: Logger) {
        self.podcasts = podcasts
        self.connection = connection
        self.downloads = downloads
        self.gathering = gathering
        self.wording = wording
        self.logger = logger
    }

    /// Listens for the notification server's answers and for new episodes (before the bus
    /// name is taken: the group awaits it).
    public func prepare() async throws {
        let stream = try await connection.signals(matching: MatchRule(interface: DesktopNotifications.interface, path: DesktopNotifications.path), bufferLimit: 64)
        state.withLock { $0.signals = stream }
        podcasts.document.addView(key: Self.viewKey) { [weak self] event in
            guard let self, case .changed(_, .newEpisodes(let podcastID, let episodes), _) = event else { return }
            // A podcast's own setting wins over the global one.
            let state = podcasts.document.snapshot.state
            guard state.preferences(of: podcastID).notifies(globally: state.settings.notify) else { return }
            gather(podcastID, episodes.map(\.id))
        }
    }

    /// A `Service`: handles the server's signals and shows the news gathered, until
    /// cancelled; then it hears no more new episodes.
    public func run() async {
        let stream = state.withLock { state in
            defer { state.signals = nil }
            return state.signals
        }
        await withDiscardingTaskGroup { group in
            if let stream {
                group.addTask { [weak self] in
                    for await message in stream { self?.handle(message) }
                }
            }
            group.addTask { [weak self] in await self?.flushing() }
            await Task.untilCancelled()
            group.cancelAll()
        }
        podcasts.document.removeView(key: Self.viewKey)
    }

    private func gather(_ podcastID: String, _ episodes: [String]) {
        let schedule = state.withLock { state -> Bool in
            if state.pending.isEmpty { state.firstArrival = RealTime.now }
            state.lastArrival = RealTime.now
            Self.add(episodes, of: podcastID, to: &state.pending)
            defer { state.flushScheduled = true }
            return !state.flushScheduled
        }
        if schedule { flushWanted.wake() }
    }

    private static func add(_ episodes: [String], of podcastID: String, to list: inout [(podcastID: String, episodes: [String])]) {
        if let index = list.firstIndex(where: { $0.podcastID == podcastID }) {
            list[index].episodes += episodes.filter { !list[index].episodes.contains($0) }
        } else {
            list.append((podcastID, episodes))
        }
    }

    /// Shows the news each time some waits, once none has come for the gathering window.
    private func flushing() async {
        while !Task.isCancelled {
            await flushWanted.wait()
            // Waits while news keeps coming (one refresh of many feeds), but not for ever.
            while !Task.isCancelled {
                let due = state.withLock { state in
                    min(state.lastArrival + gathering, state.firstArrival + gathering * 10)
                }
                guard due > RealTime.now else { break }
                try? await RealTime.sleep(until: due)
            }
            if Task.isCancelled { return }
            await flush()
        }
    }

    private func flush() async {
        let (announced, replaces) = state.withLock { state in
            defer { state.pending = [] }
            return (state.pending, state.lastID)
        }
        defer {
            // What came while this one was being shown waits for the next.
            if state.withLock({ state -> Bool in
                state.flushScheduled = !state.pending.isEmpty
                return state.flushScheduled
            }) { flushWanted.wake() }
        }
        guard !announced.isEmpty else { return }
        let notifications = DesktopNotifications(connection: connection)
        let capabilities = await notifications.capabilities()
        let titles = podcasts.document.snapshot.state.podcasts
        let text = wording(announced.map { (titles[$0.podcastID]?.title ?? $0.podcastID, $0.episodes.count) })
        let offersDownload = capabilities.contains("actions") && downloads != nil
        var notice = DesktopNotifications.Notice(summary: text.summary, body: text.body, icon: "audio-podcast")
        notice.replaces = replaces
        notice.actions = (offersDownload ? ["download", "Download"] : []) + (capabilities.contains("actions") ? ["queue", "Add to Up Next"] : [])
        notice.hints = ["category": .string("transfer"), "urgency": .byte(0)]
        do {
            let (id, server) = try await notifications.notify(notice, capabilities: capabilities)
            state.withLock { state in
                state.lastID = id
                state.server = server
                state.actions[id] = announced.flatMap(\.episodes)
                if state.actions.count > 16, let oldest = state.actions.keys.min() { state.actions[oldest] = nil }
            }
        } catch {
            // No notification server (a session without a desktop): nothing to show it on.
            logger.warning("could not show a notification of new episodes", metadata: ["error": "\(error)"])
        }
    }

    private func handle(_ message: Message) {
        guard let member = message.member?.rawValue else { return }
        switch member {
        case "ActionInvoked":
            guard let (id, action) = try? message.arguments(UInt32.self, String.self), ["download", "queue"].contains(action) else { return }
            let episodes = state.withLock { state -> [String]? in
                guard state.server == nil || message.sender == state.server else { return nil }
                return state.actions.removeValue(forKey: id)
            }
            if action == "queue" {
                // Through the owner, without waiting on the connection's thread; one played meanwhile refuses the edit.
                guard let episodes, !episodes.isEmpty else { return }
                podcasts.send(.queue(.add(episodes, next: false)), from: nil) { [logger] result in
                    if case .failure(let error) = result {
                        logger.error("could not queue the episodes a notification offered", metadata: ["error": "\(error)"])
                    }
                }
                return
            }
            for episode in episodes ?? [] {
                do { _ = try downloads?.download(episode, for: "") } catch { logger.error("could not download an episode a notification offered", metadata: ["episode": "\(episode)", "error": "\(error)"]) }
            }
        case "NotificationClosed":
            guard let (id, _) = try? message.arguments(UInt32.self, UInt32.self) else { return }
            state.withLock { state in
                guard state.server == nil || message.sender == state.server else { return }
                state.actions[id] = nil
            }
        default:
            return
        }
    }
}
