public import FoundationEssentials
import Locking
public import Logging
import Synchronization
public import AlmanacModels

/// Two-way sync of the podcasts document with a gpodder.net-compatible server: the user's
/// subscriptions and play state, shared with their other devices.
///
/// It is an in-process view of the podcasts document (Document–View): every local change it
/// hears (a subscription, a played mark, a position, a download) becomes a queued change in
/// its `SyncArchive`, kept on disk until the server has it. A run (`sync()`) reads the
/// server's changes since the last run, applies the newer ones to the document marked with
/// its own origin (`origin`) so they are not queued back, then sends the queue. The rules
/// are `SyncRules`'; the wire is a `SyncServer`'s; the password is its `SyncSecrets`'.
/// `status` is a document of its own that the bus shows.
public final class PodcastSync: Service {
    /// The origin of the changes the sync makes to the podcasts document, and its view's key.
    public static let origin = ViewKey("almanacd:sync")
    /// The item the sync's failures are kept under in the podcasts document's `LastError`.
    public static let activityItem = "sync"

    /// What the sync shows; its views (the bus) hear each change of it.
    public let status = Document<SyncStatus, SyncStatus, NoViewOptions>(SyncStatus())
    public let policy: SyncPolicy

    let podcasts: PodcastsDocument
    let inspector: any FeedInspecting
    let archive: any SyncArchive
    let secrets: any SyncSecrets
    let connect: @Sendable (SyncCredentials) -> any SyncServer
    let clock: @Sendable () -> Date
    let jitter: @Sendable () -> Double
    let logger: Logger

    /// One run, login or logout at a time.
    let gate = AsyncGate()
    /// What the sync keeps in memory (`Memory`), under one lock.
    let memory = Locked(Memory())
    let loggedIn = Atomic<Bool>(false)
    /// Tells its listeners whenever `nextDue` may have changed (the daemon's `RefreshScheduler.wake`).
    public let scheduleChanges = ScheduleChanges()

    /// What the sync keeps in memory, one value: a login or a logout changes its session and
    /// its timing at once, and nothing reads one without the other.
    struct Memory {
        /// Which calls of `sync()` the runs so far covered, so that callers waiting behind a run
        /// that started after they asked share its outcome instead of running again.
        var tickets = Tickets()
        /// The server client of the account logged in, kept between runs (its session cookie).
        var session: (account: SyncAccount, server: any SyncServer)?
        var timing = Timing()
        /// Each podcast's feed URL, as this view last heard: an unsubscribed podcast's URL is
        /// gone from the document by the time its change is heard.
        var feeds: [String: String] = [:]
        /// The last revision of the podcasts document this view has heard (and queued), and the
        /// runs waiting for it to reach theirs.
        var heard = Heard()
    }

    struct Heard {
        var revision: UInt64 = 0
        /// Runs waiting for `revision` to reach theirs, by a number of their own (a cancelled
        /// one leaves by it).
        var waiters: [UInt64: (revision: UInt64, continuation: CheckedContinuation<Void, Never>)] = [:]
        var nextWaiter: UInt64 = 0
    }

    struct Tickets {
        var requested: UInt64 = 0
        var covered: UInt64 = 0
        var last: Result<SyncReport, SyncError> = .failure(SyncError(.notLoggedIn, "No sync has run."))
    }

    struct Timing {
        /// The first local change not yet sent arrived then.
        var pendingSince: Date?
        var lastAttempt: Date?
        var failures = 0
        var retryAt: Date?
        /// Run as soon as possible (just logged in).
        var soon = false
        var syncing = false
    }

    /// - Parameters:
    ///   - podcasts: the document synced.
    ///   - inspector: reads the feeds the server lists, to subscribe to them.
    ///   - archive: the account, the queue and the episodes' sync state (the state file).
    ///   - secrets: where the password is kept.
    ///   - connect: makes the client of an account (`GpodderClient` in the daemon).
    ///   - clock, jitter: the time and the randomness of backoff, for tests.
    public init(podcasts: PodcastsDocument, inspector: any FeedInspecting, archive: any SyncArchive,
                secrets: any SyncSecrets, policy: SyncPolicy = SyncPolicy(), connect: @escaping @Sendable (SyncCredentials) -> any SyncServer,
                clock: @escaping @Sendable () -> Date = SystemClock().reading, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
                logger: Logger) {
        self.podcasts = podcasts
        self.inspector = inspector
        self.archive = archive
        self.secrets = secrets
        self.policy = policy
        self.connect = connect
        self.clock = clock
        self.jitter = jitter
        self.logger = logger
    }

    // MARK: Lifecycle

    /// A `Service`, made ready before any client can change anything: it hears the podcasts
    /// document's changes from then on, and shows the state kept from the last run. Its runs
    /// are the daemon's `RefreshScheduler`'s, at `nextDue`.
    public func prepare() async {
        podcasts.document.addView(key: Self.origin) { [weak self] event in
            self?.heard(event)
            self?.caughtUp(to: event.revision)
        }
        let (revision, state) = podcasts.document.snapshot
        caughtUp(to: revision)
        memory.withLock { memory in
            for podcast in state.podcasts.values { memory.feeds[podcast.id] = podcast.feedURL }
        }
        do {
            let record = try readingState { try archive.syncRecord() }
            loggedIn.store(record != nil, ordering: .releasing)
            if record != nil, hasLocalChanges(try readingState { try archive.queuedSyncItems() }) {
                let now = clock()
                memory.withLock { $0.timing.pendingSince = now }
            }
            if let record, !record.lastError.isEmpty {
                podcasts.activity.failed(Self.activityItem, "sync: \(record.lastError)")
            }
        } catch {
            // Whether there is an account is not known: taken as logged in, so that the
            // changes made here are still queued and a run soon says what failed (a run that
            // finds no account then takes it as logged out).
            loggedIn.store(true, ordering: .releasing)
            let now = clock()
            memory.withLock { $0.timing.pendingSince = now }
            podcasts.activity.failed(Self.activityItem, "sync: \(error.message)")
            logger.error("the sync state could not be read", metadata: ["error": "\(error.message)"])
        }
        publish()
    }

    /// Waits until cancelled, then stops hearing the podcasts document.
    public func run() async {
        await Task.untilCancelled()
        podcasts.document.removeView(key: Self.origin)
    }

    func scheduleChanged() {
        scheduleChanges.send()
    }

    var isLoggedIn: Bool { loggedIn.load(ordering: .acquiring) }

    /// When the next run is due: soon after a login, `debounce` after the first change not yet
    /// sent, `interval` after the last run, or when a failure's backoff ends; `nil` when logged
    /// out or while a run is under way (its end wakes the scheduler).
    public var nextDue: Date? {
        guard isLoggedIn else { return nil }
        let policy = self.policy
        return memory.withLock { memory in
            if memory.timing.syncing { return nil }
            if let retryAt = memory.timing.retryAt { return retryAt }
            if memory.timing.soon { return .distantPast }
            var due = (memory.timing.lastAttempt ?? .distantPast).addingTimeInterval(policy.interval)
            if let pending = memory.timing.pendingSince { due = min(due, pending.addingTimeInterval(policy.debounce)) }
            return due
        }
    }

    // MARK: Account

    /// Logs in: checks the user name and password with the server (finding its flavour when
    /// not given), checks its clock, registers this device, and only then keeps the password
    /// (`secrets`) and the account. What another account had queued is forgotten, and every
    /// subscription here is queued to be sent; the same account again (a changed password)
    /// keeps its queue. A sync follows at once. Throws `SyncError`, and then nothing was kept.
    @discardableResult
    public func logIn(server: String, user: String, password: String, device: String? = nil, caption: String? = nil,
                      flavour: SyncFlavour? = nil) async throws -> SyncAccount {
        let server = try SyncRules.server(server)
        let user = try SyncRules.user(user)
        let device = try SyncRules.device(device ?? policy.defaultDevice)
        guard !password.isEmpty, password.utf8.count <= 4_096, !password.contains("\n") else {
            throw SyncError(.invalid, "A password has 1 to 4096 bytes on one line.")
        }
        let caption = caption.map { $0.printableLine(maximumLength: 200) }.flatMap { $0.isEmpty ? nil : $0 } ?? policy.defaultCaption
        // Before the server is asked: another account is refused without a word to it.
        try Self.refuseReplacing(readingState { try archive.syncRecord() }?.account, server: server, user: user)
        let candidate = connect(SyncCredentials(server: server, user: user, password: password, device: device, flavour: flavour))
        let login = try await candidate.logIn()
        try SyncRules.checkClock(server: login.serverTime, local: clock(), tolerance: policy.clockTolerance)
        try await candidate.register(caption: caption)
        let account = SyncAccount(server: server, user: user, device: device, caption: caption, flavour: login.flavour)
        try await gate.withGate {
            let previous = try readingState { try archive.syncRecord() }
            // Again, in the gate: another login may have ended while this one asked its server.
            try Self.refuseReplacing(previous?.account, server: server, user: user)
            // The same account again (a new password, say): its queue and progress stay.
            let same = previous.map { $0.account.server == server && $0.account.user == user && $0.account.device == device && $0.account.flavour == login.flavour } ?? false
            if let previous, !same { await secrets.forget(previous.account) }
            try await secrets.store(password, for: account)
            do {
                if var previous, same {
                    previous.account = account
                    previous.lastError = ""
                    previous.passwordStore = secrets.place
                    try archive.saveSyncRecord(previous)
                } else {
                    try archive.forgetSync()
                    try archive.saveSyncRecord(SyncRecord(account: account, passwordStore: secrets.place))
                    let urls = podcasts.document.snapshot.state.podcasts.values.map(\.feedURL).sorted()
                    try archive.enqueue(urls.map(SyncItem.subscribe), episodes: [], at: clock())
                }
            } catch {
                if !same {
                    await secrets.forget(account)
                    try? archive.forgetSync()
                }
                throw SyncError(.storage, "The account could not be kept: \(error)")
            }
            memory.withLock { memory in
                memory.session = (account, candidate)
                memory.timing = Timing(soon: true)
            }
            loggedIn.store(true, ordering: .releasing)
            podcasts.activity.succeeded(Self.activityItem)
        }
        logger.info("logged in to sync", metadata: ["server": "\(server)", "user": "\(user)", "device": "\(device)", "flavour": "\(login.flavour.rawValue)"])
        publish()
        scheduleChanged()
        return account
    }

    /// Refuses a login to another account than the one logged in (another server or user):
    /// that would forget the kept password and upload every subscription and play position to
    /// wherever the caller says, and any client on the session bus may call `Login`. Logging
    /// out first (`Logout`, `almanac sync logout`) is the explicit step that allows it. The
    /// same account again (a new password, another device name) is not refused.
    static func refuseReplacing(_ current: SyncAccount?, server: String, user: String) throws {
        guard let current, current.server != server || current.user != user else { return }
        throw SyncError(.loggedIn, "Already logged in to \(current.server) as \(current.user). Log out first (`almanac sync logout`, or Logout on org.almanac.Sync1), then log in to the other account; nothing was changed.")
    }

    /// Logs out: ends the server session (best effort), forgets the password, the account,
    /// the queue and what was known of episodes. Returns whether there was an account.
    @discardableResult
    public func logOut() async throws -> Bool {
        let had = try await gate.withGate { () async throws -> Bool in
            guard let record = try readingState({ try archive.syncRecord() }) else { return false }
            let server = memory.withLock { memory in defer { memory.session = nil }; return memory.session?.server }
            await server?.logOut()
            await secrets.forget(record.account)
            do {
                try archive.forgetSync()
            } catch {
                throw SyncError(.storage, "The sync state could not be forgotten: \(error)")
            }
            loggedIn.store(false, ordering: .releasing)
            memory.withLock { $0.timing = Timing() }
            podcasts.activity.succeeded(Self.activityItem)
            logger.info("logged out of sync", metadata: ["server": "\(record.account.server)", "user": "\(record.account.user)"])
            return true
        }
        publish()
        scheduleChanged()
        return had
    }

    // MARK: Running

    /// Syncs both ways and returns when done: the server's changes applied here, the queue
    /// sent. One run at a time; a caller that asks while a run is under way gets the next run,
    /// which includes every change made before it asked. Throws `SyncError` (then the queue
    /// is kept and `LastError` says why), or `CancellationError` when its task is cancelled
    /// while another run, a login or a logout holds the sync (the daemon stopping).
    @discardableResult
    public func sync() async throws -> SyncReport {
        let ticket = memory.withLock { memory -> UInt64 in
            memory.tickets.requested += 1
            return memory.tickets.requested
        }
        let result = try await gate.withGate { () async -> Result<SyncReport, SyncError> in
            let (covered, last) = memory.withLock { ($0.tickets.covered, $0.tickets.last) }
            if covered >= ticket { return last }
            let covers = memory.withLock { $0.tickets.requested }
            let result = await runOnce()
            memory.withLock { memory in
                memory.tickets.covered = covers
                memory.tickets.last = result
            }
            return result
        }
        return try result.get()
    }

    // MARK: Hearing every change first

    /// This view has heard every change up to `revision`.
    func caughtUp(to revision: UInt64) {
        let ready = memory.withLock { memory -> [CheckedContinuation<Void, Never>] in
            memory.heard.revision = max(memory.heard.revision, revision)
            let ready = memory.heard.waiters.filter { $0.value.revision <= memory.heard.revision }
            for id in ready.keys { memory.heard.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Waits until this view has heard (and queued) every change the podcasts document made
    /// so far: the event of the document's revision at the call. A change is told to its
    /// views by whichever thread is delivering already, so the call that made it may return
    /// before the sync heard of it: a run waits for it, however busy the machine, so that it
    /// sends every change made before it was asked for. It stops waiting when the task is
    /// cancelled (the daemon stopping); and, as a guard against a delivery that never ends,
    /// throws `SyncError` after `policy.catchUpGuard` seconds, so the run sends nothing.
    func hearEverything() async throws(SyncError) {
        let target = podcasts.document.revision
        guard memory.withLock({ $0.heard.revision < target }) else { return }
        // In real time, not on `clock` (a test's clock stands still): the wait is for delivery.
        let guardSeconds = policy.catchUpGuard
        let heardIt = await withTaskGroup(of: Bool.self) { group in
            group.addTask { await self.hear(upTo: target); return true }
            group.addTask { try? await TimerSleep.sleep(seconds: guardSeconds); return false }
            let first = await group.next() ?? true
            group.cancelAll()
            return first
        }
        // Cancelled: the caller sees it and stops (`runOnce`).
        guard !heardIt, !Task.isCancelled else { return }
        logger.error("the sync did not hear the library's changes in time", metadata: ["revision": "\(target)", "heard": "\(memory.withLock { $0.heard.revision })"])
        throw SyncError(.stalled, "The sync had not heard the library's latest change after \(Self.seconds(policy.catchUpGuard)), so it sent nothing (the change stays to be sent at the next sync); see the daemon's log.")
    }

    /// A wait in words: "0.2 s" (one decimal below 10 s), "120 s" (whole seconds from there).
    static func seconds(_ wait: Double) -> String {
        let bounded = wait.isNaN ? 0 : min(max(wait, 0), 1e9)
        guard bounded < 9.95 else { return "\(Int(bounded.rounded())) s" }
        let tenths = Int((bounded * 10).rounded())
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }

    /// Waits until this view has heard `target`, or the task is cancelled.
    private func hear(upTo target: UInt64) async {
        let id = memory.withLock { memory in
            defer { memory.heard.nextWaiter += 1 }
            return memory.heard.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Cancelled before this: the handler below ran already and found no waiter.
                let now = memory.withLock { memory -> Bool in
                    guard memory.heard.revision < target, !Task.isCancelled else { return true }
                    memory.heard.waiters[id] = (target, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            memory.withLock { $0.heard.waiters.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    // MARK: Status

    /// Shows the current state in `status` (its views hear it when it changed). When the
    /// state file cannot be read, what was shown stays, with the fault as its `lastError`:
    /// a fault is not "logged out".
    func publish() {
        let syncing = memory.withLock { $0.timing.syncing }
        var current: SyncStatus
        do {
            let record = try readingState { try archive.syncRecord() }
            current = SyncStatus(account: record?.account, lastSync: record?.lastSync,
                                 queued: record == nil ? 0 : try readingState { try archive.queuedSyncCount() },
                                 lastError: record?.lastError ?? "", syncing: syncing, passwordStore: record?.passwordStore ?? "")
        } catch {
            current = status.state
            current.lastError = error.message
            current.syncing = syncing
        }
        status.update { state in
            guard state != current else { return nil }
            state = current
            return current
        }
    }

    /// What `body` reads of the sync's own state (`archive`); `SyncError(.storage)` saying so
    /// when the state file could not be read, so that the caller stops and changes nothing.
    func readingState<T>(_ body: () throws -> T) throws(SyncError) -> T {
        do {
            return try body()
        } catch {
            throw SyncError(.storage, "The state file could not be read, so the sync stopped and kept everything as it was; check the disk (the sync tries again later): \(error)")
        }
    }

    /// Whether the queue holds changes made here (feeds waiting to be read again do not count).
    func hasLocalChanges(_ entries: [SyncQueueEntry]) -> Bool {
        entries.contains { entry in
            if case .remoteSubscribe = entry.item { return false }
            return true
        }
    }
}
