public import AlmanacModels
public import FoundationEssentials
import Locking
public import Logging

/// What almanacd does about the machine it runs on. After a resume, or when the network
/// comes back, a catch-up is due at once: every wanted place and feed is fetched, as a
/// sleep or an outage of unknown length leaves every reading stale. A resume while the
/// network is known to be offline or connecting leaves it to the network's return (every
/// fetch would fail now, and the return fetches everything anyway). On a metered connection
/// with the `metered` setting `pause`, the daemon's own downloads, queued or kept from last
/// time, start none (`autoDownloadHold`)
/// and the scheduled feed reads (and a catch-up's) come at most every `meteredFeedInterval`;
/// what the user asks for goes either way. Without a watcher the network is `.unknown` and
/// nothing is held: everything works as it did. With one (`awaitsFirstReading`), the
/// daemon's own downloads wait for its first report (`networkUnread`), so that a metered
/// connection holds back the downloads kept from last time though the watcher starts only
/// after the bus name is taken; the watcher reports within its timeouts, `.unknown` at worst.
///
/// A `Service`: it follows the podcasts document's settings (a `metered` change lifts or
/// sets the hold) until cancelled.
public final class NetworkConditions: MachineEvents, Service {
    /// The shortest time between two scheduled feed reads on a metered connection.
    public static let meteredFeedInterval: Double = 3_600
    /// What an auto-download held back by a metered connection says, in `almanac downloads`.
    public static let meteredHold = "waiting: metered connection"
    /// What an auto-download says while the network has not been read yet (a moment after start).
    public static let networkUnread = "waiting: reading the network"

    private struct State {
        var network: NetworkState = .unknown
        /// Until the watcher's first report: the daemon's own downloads wait.
        var unread: Bool
        var catchUpPending = false
        /// Since when the machine was away, until a catch-up takes it: what was fetched since
        /// then was fetched after it came back. When it went to sleep; else when the network
        /// came back (fetches while it said offline are not counted as fresh).
        var awaySince: Date?
        var lastScheduledFeedRead: Date?
        var use: MeteredUse
        var holds: Bool { network == .metered && use == .pause }
        /// Why the daemon's own downloads wait, if they do.
        var hold: String? { unread ? NetworkConditions.networkUnread : holds ? NetworkConditions.meteredHold : nil }
    }

    private let state: Locked<State>
    private let podcasts: PodcastsDocument
    private let clock: @Sendable () -> Date
    private let logger: Logger
    /// Told when the hold changes or a catch-up falls due: the downloads and the catch-up's
    /// scheduler each listen (`stream()`).
    public let changes = ScheduleChanges()

    /// - Parameter awaitsFirstReading: a watcher will report the network (`networkChanged`):
    ///   until its first report, the daemon's own downloads wait.
    public init(podcasts: PodcastsDocument, awaitsFirstReading: Bool = false, clock: @escaping @Sendable () -> Date = SystemClock().reading,
                logger: Logger) {
        self.podcasts = podcasts
        self.clock = clock
        self.logger = logger
        state = Locked(State(unread: awaitsFirstReading, use: podcasts.document.snapshot.state.settings.metered))
    }

    /// The network as last reported.
    public var network: NetworkState { state.withLock { $0.network } }

    /// Why the daemon's own downloads wait now (`networkUnread`, `meteredHold`), or `nil` when they go.
    public var autoDownloadHold: String? { state.withLock { $0.hold } }

    // MARK: MachineEvents

    public func suspending() {
        let now = clock()
        state.withLock { $0.awaySince = $0.awaySince ?? now }
        logger.info("the machine is going to sleep")
    }

    public func resumed() {
        let network = self.network
        guard network != .offline, network != .connecting else {
            logger.info("the machine woke from sleep without a network: catching up once it is back", metadata: ["network": "\(network.rawValue)"])
            return
        }
        // Asked before it is said: whoever reads the line finds the catch-up due (make soak waits on it).
        requestCatchUp()
        logger.info("the machine woke from sleep: fetching every wanted place and feed")
    }

    public func networkChanged(to network: NetworkState) {
        let now = clock()
        let (old, heldBefore, heldNow) = state.withLock { state -> (NetworkState, String?, String?) in
            let old = state.network
            let before = state.hold
            state.network = network
            state.unread = false
            return (old, before, state.hold)
        }
        if heldBefore != heldNow { holdChanged() }
        guard old != network else { return }
        // Back from offline or connecting; the first report (from unknown) is no return. What
        // was fetched before now (while it said offline) is fetched again, unless the machine
        // slept meanwhile: since then.
        if network.isOnline, old == .offline || old == .connecting { requestCatchUp(since: now) }
        // Said once done, as for a resume.
        logger.info("the network changed", metadata: ["network": "\(network.rawValue)", "was": "\(old.rawValue)"])
    }

    // MARK: Catching up

    /// When the catch-up is due: at once when one was asked, else never.
    public var catchUpDue: Date? { state.withLock { $0.catchUpPending } ? .distantPast : nil }

    /// Takes the catch-up asked for: whether the feeds are read too (not when a metered
    /// connection's hourly read has been had), noted as a scheduled read when they are; and
    /// since when the machine was away (`nil`: not known), so that what was fetched after
    /// that is not fetched again (`WeatherDocument.catchUp(since:)`).
    public func takeCatchUp() -> (weather: Bool, feeds: Bool, since: Date?) {
        let now = clock()
        let taken = state.withLock { state -> (Bool, Bool, Date?) in
            guard state.catchUpPending else { return (false, false, nil) }
            state.catchUpPending = false
            let feeds = Self.feedsAllowed(state, now: now)
            if feeds { state.lastScheduledFeedRead = now }
            defer { state.awaySince = nil }
            return (true, feeds, state.awaySince)
        }
        changes.send()
        return taken
    }

    /// A catch-up is due; `since`: the network came back now (a sleep before it counts first).
    private func requestCatchUp(since: Date? = nil) {
        state.withLock { state in
            state.catchUpPending = true
            state.awaySince = state.awaySince ?? since
        }
        changes.send()
    }

    // MARK: Scheduled feed reads

    /// When the scheduled feed reads may next come, given when the podcasts document says
    /// the next feed is `due`: no earlier than an hour after the last one while metered.
    public func feedsNextDue(_ due: Date?) -> Date? {
        guard let due else { return nil }
        return state.withLock { state in
            guard state.holds, let last = state.lastScheduledFeedRead else { return due }
            return max(due, last.addingTimeInterval(Self.meteredFeedInterval))
        }
    }

    /// A scheduled feed read is starting.
    public func scheduledFeedRead() {
        let now = clock()
        state.withLock { $0.lastScheduledFeedRead = now }
    }

    private static func feedsAllowed(_ state: State, now: Date) -> Bool {
        guard state.holds, let last = state.lastScheduledFeedRead else { return true }
        return now.timeIntervalSince(last) >= meteredFeedInterval
    }

    // MARK: Service

    /// Follows the `metered` setting from now on (a restored library's too).
    public func prepare() async {
        podcasts.document.addView(key: Self.viewKey) { [weak self] event in
            let settings: PodcastSettings
            switch event {
            case .changed(_, .settings(let changed), _): settings = changed
            case .resynchronised(_, let state): settings = state.settings
            default: return
            }
            guard let self else { return }
            let (before, after) = state.withLock { state -> (String?, String?) in
                let before = state.hold
                state.use = settings.metered
                return (before, state.hold)
            }
            if before != after { holdChanged() }
        }
    }

    public func run() async {
        await Task.untilCancelled()
        podcasts.document.removeView(key: Self.viewKey)
    }

    private static let viewKey = ViewKey("almanacd:network")

    /// The hold changed: the downloads look again, and so does the feeds' scheduler.
    private func holdChanged() {
        changes.send()
        podcasts.scheduleChanges.send()
    }
}
