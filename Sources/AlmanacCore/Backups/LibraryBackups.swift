import Dispatch
public import AlmanacModels
public import FoundationEssentials
import Locking
public import Logging
import Synchronization

/// Backups of the library (docs/services.md, "Backups"): taken once a day — at start when the
/// newest is older than a day, then a day after the newest — and on request, the newest
/// `backupsKept` (a setting of the podcasts document, 7 unless changed) kept; restored on
/// request through the documents' owners, without a restart (`LibraryBackups+Restore.swift`).
///
/// The schedule is this type's alone (`nextDue`, fired by the daemon's `RefreshScheduler`),
/// read on its `clock`. The disk work is its `BackupStorage`'s, run on a queue of its own so
/// that no thread of Swift's shared pool waits for it, one operation at a time (`gate`).
public final class LibraryBackups: Sendable {
    /// How often a backup is taken by itself: once a day.
    public static let interval: Double = 86_400
    /// How long after a daily backup that failed (a full disk) it is tried again.
    public static let retryAfter: Double = 3_600

    let storage: any BackupStorage
    let weather: WeatherDocument
    let podcasts: PodcastsDocument
    let clock: @Sendable () -> Date
    let logger: Logger
    /// Tells the daemon's scheduler that `nextDue` may have moved.
    public let scheduleChanges = ScheduleChanges()
    /// One backup, import or restore at a time, in the order asked.
    let gate = AsyncGate()
    private let queue = DispatchQueue(label: "almanac.backups")
    let schedule: Locked<Schedule>

    struct Schedule {
        /// When the newest backup was taken, as last seen.
        var newest: Date?
        /// When a daily backup that failed is tried again.
        var retryAt: Date?
        /// The library is the empty one begun after a damaged file: a daily backup of it would
        /// push a real one out, so none is taken until a restore (or the next start).
        var paused = false
        /// What the documents' `LastError` says of the backups until it is answered: the damaged
        /// file's note (until a restore), why the copy before a migration was not made and why
        /// the last daily backup was not taken (both until a backup is).
        var damaged: String?
        var unbackedMigration: String?
        var dailyFailure: String?

        var notes: String { [damaged, unbackedMigration, dailyFailure].compactMap { $0 }.joined(separator: " ") }
    }

    /// - Parameters:
    ///   - storage: the backups folder and the live library.
    ///   - weather, podcasts: the documents a restore goes through (their owners).
    ///   - clock: the time backups are named and scheduled by.
    public init(storage: any BackupStorage, weather: WeatherDocument, podcasts: PodcastsDocument,
                clock: @escaping @Sendable () -> Date = SystemClock().reading, logger: Logger) {
        self.storage = storage
        self.weather = weather
        self.podcasts = podcasts
        self.clock = clock
        self.logger = logger
        let newest = (try? storage.backups())?.map(\.takenAt).max()
        schedule = Locked(Schedule(newest: newest))
    }

    /// The folder the backups are in.
    public var folder: String { storage.folder }

    /// When the next daily backup is due: a day after the newest backup (now when there is
    /// none), or the retry of one that failed; `nil` while paused.
    public var nextDue: Date? {
        schedule.withLock { schedule in
            guard !schedule.paused else { return nil }
            if let retryAt = schedule.retryAt { return retryAt }
            return schedule.newest.map { $0.addingTimeInterval(Self.interval) } ?? clock()
        }
    }

    /// No daily backup until a restore: the state file was found damaged and a new, empty one
    /// begun. `note` (which names the backup to restore: `restoreHint`) is both documents'
    /// standing `LastError` until then.
    public func pauseUntilRestored(note: String) {
        schedule.withLock { schedule in
            schedule.paused = true
            schedule.damaged = note
        }
        showNotes()
        scheduleChanges.send()
    }

    /// The state file's schema was changed at start without the copy that goes before it (the
    /// disk too full): `note` says so in both documents' standing `LastError` until a backup is taken.
    public func noteUnbackedMigration(_ note: String) {
        schedule.withLock { $0.unbackedMigration = note }
        showNotes()
    }

    /// Sets the notes the backups have as both documents' standing `LastError` ("" for none).
    func showNotes() {
        let note = schedule.withLock { $0.notes }
        weather.activity.standing(note)
        podcasts.activity.standing(note)
    }

    /// The backups, newest first.
    public func list() async throws -> [LibraryBackup] {
        try await blocking { [storage] in try storage.backups().sorted(by: LibraryBackup.newestFirst) }
    }

    /// Takes a backup now (`almanac backup now`) and lets the oldest beyond `backupsKept` go.
    public func backUp(reason: String = BackupName.manual) async throws -> LibraryBackup {
        try await gate.withGate { try await takeBackup(reason: reason) }
    }

    /// The daily backup, when it is due (the daemon's scheduler fires it). A failure (too
    /// little free space: `BackupError.noSpace`) is logged and said in `LastError`, and the
    /// backup tried again in an hour; the daemon goes on.
    public func daily() async {
        defer { scheduleChanges.send() }
        guard let due = nextDue, due <= clock() else { return }
        do {
            _ = try await gate.withGate { try await takeBackup(reason: BackupName.daily) }
        } catch {
            let retryAt = clock().addingTimeInterval(Self.retryAfter)
            schedule.withLock { $0.retryAt = retryAt }
            logger.error("could not take the daily backup of the library", metadata: ["folder": "\(storage.folder)", "error": "\(error)"])
            schedule.withLock { $0.dailyFailure = "The daily backup of the library was not taken: \(error) It is tried again in an hour; `almanac backup now` takes one." }
            showNotes()
        }
    }

    /// Within the gate: a backup, then the oldest beyond the kept count deleted.
    func takeBackup(reason: String) async throws -> LibraryBackup {
        let taken = try await blocking { [storage, clock] in try storage.backUp(reason: reason, at: clock()) }
        logger.info("took a backup of the library", metadata: ["backup": "\(taken.path)", "reason": "\(reason)"])
        let answered = schedule.withLock { schedule in
            defer { (schedule.unbackedMigration, schedule.dailyFailure) = (nil, nil) }
            return schedule.unbackedMigration != nil || schedule.dailyFailure != nil
        }
        if answered { showNotes() }
        await prune(sparing: [taken.name])
        return taken
    }

    /// Deletes the oldest backups beyond the kept count, never one of `sparing` (the one just
    /// taken, the one just restored); notes the newest.
    func prune(sparing: Set<String>) async {
        let kept = podcasts.document.snapshot.state.settings.backupsKept
        do {
            let all = try await blocking { [storage] in try storage.backups() }
            for backup in Self.expired(all, keeping: kept, sparing: sparing) {
                try await blocking { [storage] in try storage.delete(backup) }
                logger.info("deleted an old backup of the library", metadata: ["backup": "\(backup.path)"])
            }
            schedule.withLock { schedule in
                schedule.newest = all.map(\.takenAt).max()
                schedule.retryAt = nil
            }
        } catch {
            logger.error("could not delete the old backups of the library", metadata: ["folder": "\(storage.folder)", "error": "\(error)"])
        }
        scheduleChanges.send()
    }

    /// The backups to delete so that `kept` remain: the oldest, never one of `sparing`.
    public static func expired(_ backups: [LibraryBackup], keeping kept: Int, sparing: Set<String>) -> [LibraryBackup] {
        var remaining = backups.count
        var expired: [LibraryBackup] = []
        for backup in backups.sorted(by: LibraryBackup.newestFirst).reversed() where remaining > max(1, kept) {
            guard !sparing.contains(backup.name) else { continue }
            expired.append(backup)
            remaining -= 1
        }
        return expired
    }

    /// What a user should do about a library found damaged at start: the newest backup, and
    /// the command that restores it (or that there is none).
    public func restoreHint() -> String {
        guard let newest = (try? storage.backups())?.max(by: { LibraryBackup.newestFirst($1, $0) }) else {
            return "No backup was found in \(storage.folder)."
        }
        return "The latest backup is \(newest.path), taken \(Self.describe(newest.takenAt)): `almanac restore latest` restores it."
    }

    /// A backup's time as the hint words it: `2026-11-22 06:00 UTC`.
    static func describe(_ date: Date) -> String {
        let name = BackupName.make(takenAt: date, reason: "x")
        let digits = Array(name.dropFirst("almanac-".count).prefix(15))
        let day = String(digits[0..<4]) + "-" + String(digits[4..<6]) + "-" + String(digits[6..<8])
        return day + " " + String(digits[9..<11]) + ":" + String(digits[11..<13]) + " UTC"
    }

    /// Runs `work`, which blocks on the disk, on the backups' queue.
    func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
