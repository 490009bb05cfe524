import Locking
import Logging
import Synchronization
import FoundationEssentials
import AlmanacModels

/// Running jobs: started as the limits allow, their transfers, progress and
/// free-space checks, and finished jobs kept a while and then removed.
extension DownloadManager {
    // MARK: Running jobs

    struct Found: Error { let job: DownloadJob }

    /// True the first time it is taken, false after.
    private final class Once: Sendable {
        private let taken = Atomic(false)
        func take() -> Bool { !taken.exchange(true, ordering: .relaxed) }
    }

    func job(matching episodeID: String) throws -> DownloadJob {
        guard let job = document.snapshot.state.values.filter({ $0.episodeID == episodeID }).max(by: { $0.id < $1.id }) else {
            throw DownloadRefusal.unknownJob("The download of \(episodeID) vanished.")
        }
        return job
    }

    /// Starts queued jobs, oldest first, while there are free slots; the daemon's own (`auto`)
    /// only while no hold keeps them back. A job that would leave the disk less free
    /// than `minimumFreeSpace` fails instead, saying so.
    func pump() {
        while running.withLock({ $0.phase == .running }) {
            let jobs = document.snapshot.state
            let holding = autoDownloadHold() != nil
            guard jobs.values.filter({ $0.state == .downloading }).count < limits.concurrent,
                  let candidate = jobs.values.filter({ $0.state == .queued && !(holding && $0.auto) }).min(by: { $0.id < $1.id }) else { return }
            // Read before the document's lock is taken: a disk may be slow to answer.
            let refusal = freeSpaceRefusal(for: candidate)
            var started: DownloadJob?
            var refused: DownloadJob?
            document.update { jobs -> DownloadChange? in
                let running = jobs.values.filter { $0.state == .downloading }.count
                guard running < limits.concurrent, var next = jobs[candidate.id], next.state == .queued else { return nil }
                if let refusal {
                    (next.state, next.error) = (.failed, refusal)
                    refused = next
                } else {
                    (next.state, next.error) = (.downloading, "")
                    started = next
                }
                jobs[next.id] = next
                return .updated(next)
            }
            if let refused {
                logger.warning("a download did not start: the disk is nearly full", metadata: ["job": "\(refused.id)", "episode": "\(refused.episodeID)"])
                persist(refused)
                removeLater(refused.id)
            }
            if let started { start(started) }
        }
    }

    /// Why `job` must not start now for want of disk space (`nil`: it may). What it still
    /// has to fetch counts when the size is known (a resumed job).
    private func freeSpaceRefusal(for job: DownloadJob) -> String? {
        let minimum = podcasts.document.snapshot.state.settings.minimumFreeSpace
        guard let diskSpace, minimum > 0 else { return nil }
        do {
            let free = try diskSpace.freeSpace(at: job.folder)
            return free.refusal(needed: job.total > job.received ? job.total - job.received : 0, minimum: minimum, folder: job.folder)
        } catch {
            // Unknown: the transfer itself finds out whether the disk takes it.
            logger.warning("could not read the free space of the downloads' disk", metadata: ["folder": "\(job.folder)", "error": "\(error)"])
            return nil
        }
    }

    /// Keeps the finished jobs that linger below the queue's size: the oldest go first.
    func pruneFinished() {
        while true {
            var pruned: DownloadJob?
            document.update { jobs -> DownloadChange? in
                let finished = jobs.values.filter { $0.state.isFinished }
                guard finished.count >= limits.queued, let oldest = finished.min(by: { $0.id < $1.id }) else { return nil }
                jobs[oldest.id] = nil
                pruned = oldest
                return .removed(oldest)
            }
            guard let pruned else { return }
            try? archive?.removeDownloadJob(pruned.id)
        }
    }

    /// The hold may have changed: the daemon's own queued jobs are announced again (what they
    /// show, `shownError`, changed), and those it no longer holds start.
    func holdMayHaveChanged() {
        let hold = autoDownloadHold()
        let before = running.withLock { running -> String? in
            defer { running.announcedHold = hold }
            return running.announcedHold
        }
        guard before != hold else { return pump() }
        let own = document.snapshot.state.values.filter { $0.state == .queued && $0.auto }.map(\.id)
        for id in own {
            document.update { jobs -> DownloadChange? in
                guard let job = jobs[id], job.state == .queued, job.auto else { return nil }
                return .updated(job)
            }
        }
        if !own.isEmpty { logger.info(hold == nil ? "the downloads held back go now" : "the daemon's own downloads wait", metadata: ["jobs": "\(own.count)", "why": "\(hold ?? "")"]) }
        pump()
    }

    /// Starts a job's transfer, a child task of `run()` that its signal stops.
    private func start(_ job: DownloadJob) {
        let stop = StopSignal()
        running.withLock { $0.transfers[job.id] = Transfer(stop: stop) }
        // `run()` has ended meanwhile: the job resumes at the next start.
        if case .terminated = ask(.transfer(job, stop)) {
            running.withLock { _ = $0.transfers.removeValue(forKey: job.id) }
            return
        }
        // A cancel that came before the signal was registered found nothing to stop: stop it now.
        if document.snapshot.state[job.id]?.state != .downloading { stop.stop() }
    }

    func transfer(_ job: DownloadJob, until stop: StopSignal) async {
        await stop.run { [self] in
            do {
                let file = try await downloader.download(job) { [weak self] progress in self?.progressed(job.id, progress) }
                await complete(job, with: file)
            } catch is CancellationError {
                // Cancelled (the job says so already) or the daemon is stopping (the job resumes next time).
            } catch {
                // Each job has a temporary file of its own: what a failed one leaves is of no use.
                downloader.discard(job)
                finish(job.id) { $0.state = .failed; $0.error = "\(error)".printableLine(maximumLength: 500) }
            }
        }
        // Its progress can come no more.
        running.withLock { _ = $0.transfers.removeValue(forKey: job.id) }
        pump()
    }

    /// A transfer brought the whole file: the job completes and the episode knows its file,
    /// unless a cancel came first (then the file goes too: the user said no).
    /// The episode's file is recorded through the document's owner, awaited: this runs in a
    /// task of Swift's pool, which must not wait on a thread for the owner's burst.
    private func complete(_ job: DownloadJob, with file: String) async {
        // Cancelled meanwhile: the file goes without being announced as the episode's first.
        // (A cancel between here and `finish` is undone below.)
        guard document.snapshot.state[job.id]?.state == .downloading else {
            try? downloader.delete(file: file)
            return
        }
        do {
            _ = try await podcasts.withOwner { [podcasts] in try podcasts.recordFile(file, of: job.episodeID) }
        } catch {
            // Unsubscribed meanwhile, or the disk refused: the file stays, the job says where.
            logger.error("downloaded a file but could not record it", metadata: ["file": "\(file)", "error": "\(error)"])
        }
        var completed = false
        finish(job.id) { job in
            guard job.state == .downloading else { return }
            (job.state, job.file, completed) = (.completed, file, true)
        }
        guard !completed else { return }
        try? downloader.delete(file: file)
        if (try? podcasts.episode(job.episodeID))??.file == file {
            _ = try? await podcasts.withOwner { [podcasts] in try podcasts.recordFile(nil, of: job.episodeID) }
        }
    }

    private func progressed(_ id: UInt64, _ progress: DownloadProgress) {
        let now = RealTime.now
        let interval = Duration.milliseconds(Int(limits.progressInterval * 1000))
        // Due: announce now. Otherwise keep it, and (for the first kept) announce what is kept
        // when the interval ends. A transfer no longer kept (cancelled, stopped) announces nothing.
        let (due, wait) = running.withLock { running -> (Bool, Duration?) in
            guard var transfer = running.transfers[id] else { return (false, nil) }
            defer { running.transfers[id] = transfer }
            guard let last = transfer.lastAnnounced, last.duration(to: now) < interval else {
                (transfer.lastAnnounced, transfer.pending) = (now, nil)
                return (true, nil)
            }
            defer { transfer.pending = progress }
            return (false, transfer.pending == nil ? interval - last.duration(to: now) : nil)
        }
        announce(id, progress, due: due)
        checkSpace(id, progress)
        guard let wait else { return }
        work.continuation.yield(.announceLater(id, wait))
    }

    /// Announces what progress of `id` was kept back, once `wait` has passed.
    func announceLater(_ id: UInt64, after wait: Duration) async {
        // Cancelled: the manager is stopping, and nothing is announced any more.
        guard (try? await RealTime.sleep(for: wait)) != nil else { return }
        let kept = running.withLock { running -> DownloadProgress? in
            guard var transfer = running.transfers[id], let kept = transfer.pending else { return nil }
            (transfer.lastAnnounced, transfer.pending) = (RealTime.now, nil)
            running.transfers[id] = transfer
            return kept
        }
        if let kept { announce(id, kept, due: true) }
    }

    /// Puts a transfer's progress into its job: when `due`, or at once when the total or the
    /// server's validator changed (a validator is kept on disk, for a resume after a restart).
    /// A transfer that learns a size the disk cannot take stops there, as one that knew it
    /// would not have started.
    private func announce(_ id: UInt64, _ progress: DownloadProgress, due: Bool) {
        var validatorChanged = false
        var sizeLearned = false
        var updated: DownloadJob?
        document.update { jobs -> DownloadChange? in
            guard var job = jobs[id], job.state == .downloading else { return nil }
            validatorChanged = job.validator != progress.validator
            sizeLearned = job.total != progress.total && progress.total > progress.received
            guard due || validatorChanged || job.total != progress.total,
                  (job.received, job.total, job.validator) != (progress.received, progress.total, progress.validator) else { return nil }
            (job.received, job.total, job.validator) = (progress.received, progress.total, progress.validator)
            jobs[id] = job
            updated = job
            return .updated(job)
        }
        if validatorChanged, let updated { persist(updated) }
        if sizeLearned, let updated, let refusal = freeSpaceRefusal(for: updated) { stop(updated, refusal: refusal) }
    }

    /// Reads the free space again each `spaceCheckInterval` bytes a transfer grows, and stops
    /// it, saying why, once what is left (after what it still has to fetch, when its size is
    /// known) is under `minimumFreeSpace`.
    private func checkSpace(_ id: UInt64, _ progress: DownloadProgress) {
        let due = running.withLock { running -> Bool in
            guard let last = running.transfers[id]?.spaceCheckedAt,
                  progress.received >= last &+ Self.spaceCheckInterval || progress.received < last else { return false }
            running.transfers[id]?.spaceCheckedAt = progress.received
            return true
        }
        guard due, var job = document.snapshot.state[id], job.state == .downloading else { return }
        (job.received, job.total) = (progress.received, progress.total)
        if let refusal = freeSpaceRefusal(for: job) { stop(job, refusal: refusal) }
    }

    /// Stops a running transfer whose size would leave the disk too full: the job fails saying
    /// so, and what it fetched goes (a try once there is room starts afresh).
    func stop(_ job: DownloadJob, refusal: String) {
        var stopped = false
        finish(job.id) { job in
            guard job.state == .downloading else { return }
            (job.state, job.error, stopped) = (.failed, refusal, true)
        }
        guard stopped else { return }
        logger.warning("a download stopped: its size would leave the disk nearly full", metadata: ["job": "\(job.id)", "episode": "\(job.episodeID)"])
        running.withLock { $0.transfers.removeValue(forKey: job.id) }?.stop.stop()
        downloader.discard(job)
        pump()
    }

    /// Changes an unfinished job into a finished one (a `change` that leaves it unfinished changes nothing).
    func finish(_ id: UInt64, _ change: (inout DownloadJob) -> Void) {
        var finished: DownloadJob?
        document.update { jobs -> DownloadChange? in
            guard var job = jobs[id], !job.state.isFinished else { return nil }
            change(&job)
            guard job.state.isFinished else { return nil }
            if job.state == .completed { job.received = max(job.received, job.total) }
            jobs[id] = job
            finished = job
            return .updated(job)
        }
        guard let finished else { return }
        persist(finished)
        removeLater(id)
    }

    func persist(_ job: DownloadJob) {
        do { try archive?.saveDownloadJob(job) } catch { logger.error("could not keep a download job", metadata: ["job": "\(job.id)", "error": "\(error)"]) }
    }

    /// Removes a finished job after `limits.linger` seconds (a child task of `run()`).
    func removeLater(_ id: UInt64) {
        ask(.removeLater(id))
    }

    /// Counted in `workUnderWay` until its wait is on the clock (or it did not wait).
    func remove(_ id: UInt64, after linger: Double) async {
        let counted = Once()
        let uncount: @Sendable () -> Void = { [self] in
            if counted.take() { underWay.subtract(1, ordering: .relaxed) }
        }
        defer { uncount() }
        // Cancelled: the manager is stopping, and the next start forgets finished jobs.
        guard (try? await clock.sleep(until: clock.now.addingTimeInterval(linger), whenAsleep: uncount)) != nil else { return }
        document.update { jobs -> DownloadChange? in
            guard let job = jobs[id], job.state.isFinished else { return nil }
            jobs[id] = nil
            return .removed(job)
        }
        try? archive?.removeDownloadJob(id)
    }
}
