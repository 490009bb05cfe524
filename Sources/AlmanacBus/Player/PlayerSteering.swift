public import AlmanacCore
import AlmanacModels
import DBus
import FoundationEssentials
import Locking
public import Logging

/// Almanac steering the media players it watches (`MPRISListener`): the sleep timer, which
/// pauses a player then (MPRIS `Pause`) and is cancelled when the user pauses or stops it,
/// chapter seeking (`SetPosition`), and a podcast's own `speed` (`Rate`) and `skipIntro`
/// (`SetPosition`) when a player starts one of its episodes, and playing on: once the
/// episode a player plays counts as played, it is told to open the next one in the queue
/// (`OpenUri`) from where that was left — at once when a seek took it there, else when it
/// reaches its podcast's outro (`skip-outro`) or `playOnMargin` before its end. The rules of when and where are the values'
/// (`SleepTimer`, `ChapterSeek`) and the podcasts document's (`playedMark`); here they meet
/// the players. A `Service`: the timer goes with the daemon.
public final class PlayerSteering: Service {
    /// The timer set, with the chapters it counts with and the task waiting for its moment
    /// (replaced whenever the player moves, so it never waits on an old estimate).
    struct Armed: Sendable {
        var status: SleepTimerStatus
        var chapters: [FeedChapter]
        /// The episode's length when the player gave none (the feed's).
        var length: Double?
        var generation: UInt64
        var wait: StopSignal?
    }

    /// Everything steering keeps, one value under one lock: the timer, the waits it replaces
    /// at each change of a player, the players due to play on and where they resume, and whom
    /// it tells. One value, so that deciding between an end-of-episode timer and playing on
    /// (`fire`, `playOnIfThere`) is one step, and no step takes two locks.
    struct State: Sendable {
        /// The timer set, `nil` when none is.
        var timer: Armed?
        /// Timers set so far: each timer's `generation`, so that a stale wait fires nothing.
        var generations: UInt64 = 0
        /// The chapters of the episode the latest player has open, fetched once per episode.
        var openChapters: (episodeID: String, chapters: [FeedChapter])?
        /// Waits for the next chapter to begin while a player plays (the one moment `NowPlaying`
        /// changes by itself), replaced at each change of the player.
        var chapterTurn: StopSignal?
        /// Waits for the moment the position estimate says a playing player's episode counts as
        /// played (no signal comes from a player that plays on), replaced at each change of the player.
        var playedTurn: StopSignal?
        /// The players whose episode (by id) counted as played as they played it, waiting to be
        /// told to play on near its end.
        var playOnDue: [BusName: String] = [:]
        /// Waits for the moment the first of them is to play on, replaced at each change of a player.
        var playOnTurn: StopSignal?
        /// Where each player told to play on is to start the episode it was told to open
        /// (its saved position), until it is seen to start it (`started`).
        var resumes: [BusName: (episodeID: String, position: Double)] = [:]
        /// Told when the timer is set, moves, fires or is cancelled.
        var timerChanges: Callback?
        /// Told when what a player has open changes.
        var nowPlayingChanges: Callback?
    }

    let players: MPRISListener
    let podcasts: PodcastsDocument
    private let chapters: (any ChaptersFetching)?
    let logger: Logger
    let state = Locked(State())
    /// What steering does over time, waiting for `run()`, which runs each as a child task
    /// (so that stopping the daemon ends them all).
    private let work = AsyncStream<Work>.makeStream()
    private struct Work: Sendable { let body: @Sendable () async -> Void }
    /// The longest a wait sleeps at once: a player's values (a rate of 1e-300, a length of
    /// years) can make a moment too far off for a `Duration`; past this it looks again (the
    /// sleep timer's wait sleeps on toward its moment).
    static let longestWait: Double = 3_600
    /// How many times a player is told where to go when it does not say it went there.
    static let seekAttempts = 8
    /// Seconds of listening (at the player's rate) before its end at which a player that played
    /// its episode on past the played mark is told to play on: late enough that nothing worth
    /// hearing is cut, early enough that it has not quit or stopped yet (docs/decisions.md).
    static let playOnMargin: Double = 2
    /// How far short of its moment a player may say it is and still be told to play on (the
    /// estimate and the answer differ by a little; waiting again for that would loop).
    static let playOnSlack: Double = 0.25

    /// Sleeps `seconds` (at most `longestWait`); whether the whole of them passed.
    static func wait(_ seconds: Double) async -> Bool {
        let slept = seconds.isFinite ? min(max(0, seconds), longestWait) : longestWait
        try? await RealTime.sleep(for: .milliseconds(Int64((slept * 1000).rounded(.up))))
        return !Task.isCancelled && slept == seconds
    }

    public init(players: MPRISListener, podcasts: PodcastsDocument, chapters: (any ChaptersFetching)?,
                logger: Logger) {
        self.players = players
        self.podcasts = podcasts
        self.chapters = chapters
        self.logger = logger
        players.whenPlayersChange { [weak self] owner, change in self?.playerChanged(owner, change) }
    }

    /// A `Service`: runs what steering does over time, each piece a child task, until
    /// cancelled; then the timer goes (a daemon that stops pauses nobody).
    public func run() async {
        await withDiscardingTaskGroup { group in
            for await piece in work.stream { group.addTask { await piece.body() } }
            group.cancelAll()
        }
        _ = disarm()
        let turns = state.withLock { [$0.chapterTurn, $0.playedTurn, $0.playOnTurn] }
        for turn in turns { turn?.stop() }
    }

    /// Hands `body` to `run()`, to run as a child task.
    func spawn(_ body: @escaping @Sendable () async -> Void) {
        work.continuation.yield(Work(body: body))
    }

    /// Hands `body` to `run()`; the signal returned stops it.
    func spawnStoppable(_ body: @escaping @Sendable () async -> Void) -> StopSignal {
        let stop = StopSignal()
        spawn { await stop.run(body) }
        return stop
    }

    // MARK: Now playing

    /// Calls `body` whenever what a player has open changes: another episode, a status, a seek
    /// or rate, a chapter beginning, the player leaving.
    func whenNowPlayingChanges(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.nowPlayingChanges = Callback(body) }
    }

    /// The time on the daemon's clock (the podcasts document's).
    var now: Date { podcasts.now }

    /// What the player that changed last has open, as of now (`nil`: no player has an episode).
    func nowPlaying() -> NowPlaying? {
        guard let player = players.playingEpisodes().first, let episode = try? podcasts.episode(player.episodeID) else { return nil }
        let chapters = state.withLock { $0.openChapters?.episodeID == player.episodeID ? $0.openChapters?.chapters : nil } ?? []
        return NowPlaying(episodeID: episode.id, title: episode.title, podcastTitle: podcasts.document.snapshot.state.podcasts[episode.podcastID]?.title ?? "",
                          status: player.playing ? "Playing" : "Paused", position: player.position, at: podcasts.now, rate: player.rate,
                          length: player.length ?? episode.duration, chapter: ChapterSeek.current(chapters, at: player.position))
    }

    /// A player changed: the chapters of what it has open are fetched when it is another
    /// episode, the wait for the next chapter starts again, and `NowPlaying` is announced.
    private func playingChanged() async {
        if let player = players.playingEpisodes().first, state.withLock({ $0.openChapters?.episodeID }) != player.episodeID {
            let chapters = (try? await chapters(of: player.episodeID)) ?? []
            state.withLock { $0.openChapters = (player.episodeID, chapters) }
        }
        let next: Double? = {
            guard let player = players.playingEpisodes().first, player.playing,
                  let chapters = state.withLock({ $0.openChapters?.episodeID == player.episodeID ? $0.openChapters?.chapters : nil }),
                  let start = chapters.map(\.start).filter({ $0 > player.position + 0.001 }).min() else { return nil }
            return (start - player.position) / (player.rate > 0 ? player.rate : 1)
        }()
        let turn = next.map { delay in
            spawnStoppable { [weak self] in
                // A little past the start, so that the estimate is in the new chapter.
                _ = await Self.wait(delay + 0.05)
                guard !Task.isCancelled else { return }
                await self?.playingChanged()
            }
        }
        state.withLock { state in
            defer { state.chapterTurn = turn }
            return state.chapterTurn
        }?.stop()
        awaitPlayedMark()
        awaitPlayOn()
        state.withLock { $0.nowPlayingChanges }?()
    }

    /// Calls `body` whenever the timer is set, moves, fires or is cancelled.
    func whenTimerChanges(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.timerChanges = Callback(body) }
    }

    /// The timer set now, `nil` when none is.
    var sleepTimer: SleepTimerStatus? {
        state.withLock { $0.timer?.status }
    }

    // MARK: The sleep timer

    /// Sets the sleep timer on the player playing an episode (the one that changed last, when
    /// several do), replacing any timer set before. `SteeringError` when none plays one, or when
    /// its end or its chapter's cannot be told.
    func sleep(_ timer: SleepTimer) async throws -> SleepTimerStatus {
        guard let playing = players.playingEpisodes().first(where: \.playing) else {
            throw SteeringError(.noPlayer, "No media player is playing an episode of your library, so there is nothing to pause.")
        }
        var chapters: [FeedChapter] = []
        if timer == .endOfChapter {
            chapters = try await self.chapters(of: playing.episodeID)
            guard !chapters.isEmpty else {
                throw SteeringError(.cannotTell, "The episode playing has no chapters, so it has no end of chapter to pause at. Set a time, or the end of the episode.")
            }
        }
        // The player's length, else the feed's.
        let length = try playing.length ?? podcasts.episode(playing.episodeID)?.duration
        guard let delay = timer.delay(now: podcasts.now, position: playing.position, rate: playing.rate, length: length, chapters: chapters) else {
            throw SteeringError(.cannotTell, "The player does not say how long the episode playing is, nor does its feed, so its end cannot be told. Set a time instead.")
        }
        let status = SleepTimerStatus(timer: timer, owner: playing.owner, episodeID: playing.episodeID, pausesAt: podcasts.now.addingTimeInterval(delay))
        let previous = state.withLock { state -> StopSignal? in
            state.generations += 1
            defer { state.timer = Armed(status: status, chapters: chapters, length: length, generation: state.generations, wait: nil) }
            return state.timer?.wait
        }
        previous?.stop()
        schedule()
        logger.debug("sleep timer set", metadata: ["timer": "\(timer.kind)", "player": "\(playing.owner)", "in": "\(delay)"])
        return sleepTimer ?? status
    }

    /// Cancels the timer; whether one was set.
    func cancelSleep() -> Bool {
        disarm() != nil
    }

    @discardableResult
    private func disarm() -> SleepTimerStatus? {
        let (gone, told) = state.withLock { state -> (Armed?, Callback?) in
            defer { state.timer = nil }
            return (state.timer, state.timerChanges)
        }
        gone?.wait?.stop()
        if gone != nil { told?() }
        return gone?.status
    }

    /// (Re)starts the wait for the timer's moment, from where its player is now. The moment
    /// then stays put until the player changes: a wait longer than `longestWait` goes on in
    /// pieces toward it (looking again from the player's estimate would move the moment of a
    /// timer counted at `SleepTimer.slowestRate` on for ever).
    private func schedule() {
        let estimates = players.playingEpisodes()
        let now = podcasts.now
        let told = state.withLock { state -> Callback? in
            guard var current = state.timer else { return nil }
            current.wait?.stop()
            let status = current.status
            let player = estimates.first { $0.owner == status.owner }
            let delay = player.flatMap { status.timer.delay(now: now, position: $0.position, rate: $0.rate, length: $0.length ?? current.length, chapters: current.chapters) }
                ?? (status.timer.delay(now: now, position: 0, rate: 1, length: nil, chapters: []))
            current.status = SleepTimerStatus(timer: status.timer, owner: status.owner, episodeID: status.episodeID,
                                              pausesAt: delay.map { now.addingTimeInterval($0) })
            let generation = current.generation
            current.wait = delay.flatMap { $0.isFinite ? $0 : nil }.map { delay in
                spawnStoppable { [weak self] in
                    var left = delay
                    while left > Self.longestWait {
                        guard await Self.wait(Self.longestWait) else { return }
                        left -= Self.longestWait
                    }
                    guard await Self.wait(left) else { return }
                    await self?.fire(generation)
                }
            }
            state.timer = current
            return state.timerChanges
        }
        told?()
    }

    /// The timer's moment: pauses its player, unless the timer was set anew or cancelled meanwhile.
    private func fire(_ generation: UInt64) async {
        let (status, told) = state.withLock { state -> (SleepTimerStatus?, Callback?) in
            guard let current = state.timer, current.generation == generation else { return (nil, nil) }
            state.timer = nil
            // It pauses at the end of the episode: that player does not play on from it.
            if current.status.timer == .endOfEpisode { state.playOnDue[current.status.owner] = nil }
            return (current.status, state.timerChanges)
        }
        guard let status else { return }
        told?()
        do {
            try await players.pause(status.owner)
            logger.info("the sleep timer paused a media player", metadata: ["player": "\(status.owner)", "episode": "\(status.episodeID)"])
        } catch {
            logger.error("the sleep timer could not pause a media player", metadata: ["player": "\(status.owner)", "error": "\(error)"])
        }
    }

    /// What a player did: the timer on it is cancelled when the user pauses or stops it (or
    /// it leaves), moved when it seeks or changes rate, and fired when its episode gives way
    /// to another track (a timer to the end of the episode or chapter has reached it).
    private func playerChanged(_ owner: BusName, _ change: PlayerChange) {
        switch change {
        case .otherTrack(let episodeID):
            state.withLock { $0.playOnDue[owner] = nil }
            if let episodeID { spawn { [weak self] in await self?.started(episodeID, on: owner) } }
        case .played(let episodeID, jumped: true):
            spawn { [weak self] in await self?.playOn(from: episodeID, on: owner) }
            return
        case .played(let episodeID, jumped: false):
            state.withLock { $0.playOnDue[owner] = episodeID }
            awaitPlayOn()
            return
        case .left:
            state.withLock { state in
                state.resumes[owner] = nil
                state.playOnDue[owner] = nil
            }
        default:
            break
        }
        spawn { [weak self] in await self?.playingChanged() }
        guard let timer = state.withLock({ $0.timer }), timer.status.owner == owner else { return }
        switch change {
        case .left, .status("Paused"), .status("Stopped"):
            disarm()
        case .otherTrack where timer.status.timer != SleepTimer.endOfEpisode && timer.status.timer != .endOfChapter:
            schedule()
        case .otherTrack:
            let generation = timer.generation
            spawn { [weak self] in await self?.fire(generation) }
        case .moved, .status:
            schedule()
        case .played:
            break
        }
    }

    // MARK: A podcast's own settings

    /// A player started an episode: its podcast's speed is set (when the player plays at it:
    /// within its `MinimumRate`…`MaximumRate`), and when it starts before the end of the
    /// podcast's intro, it is moved past it — or, when it was told to play on to this
    /// episode, to where the episode was left, if that is further.
    private func started(_ episodeID: String, on owner: BusName) async {
        let resume = state.withLock { state -> Double? in
            guard let entry = state.resumes[owner], entry.episodeID == episodeID else { return nil }
            state.resumes[owner] = nil
            return entry.position
        }
        guard let episode = try? podcasts.episode(episodeID) else { return }
        let preferences = podcasts.document.snapshot.state.preferences(of: episode.podcastID)
        if let speed = preferences.speed {
            do {
                let (rates, canControl) = try await players.rates(of: owner)
                if canControl && rates.contains(speed) {
                    try await players.setRate(owner, to: speed)
                } else {
                    logger.notice("a media player cannot play at its podcast's speed", metadata: ["player": "\(owner)", "speed": "\(speed)",
                                                                                                 "rates": "\(rates)", "canControl": "\(canControl)"])
                }
            } catch {
                logger.error("could not set a media player's rate", metadata: ["player": "\(owner)", "error": "\(error)"])
            }
        }
        let start = max(resume ?? 0, preferences.skipIntro ?? 0)
        guard start > 0, let player = players.playingEpisodes().first(where: { $0.owner == owner && $0.episodeID == episodeID }),
              player.position < start - 1 else { return }
        do {
            try await seek(player, to: start)
        } catch {
            logger.error("could not move a media player to where its episode starts", metadata: ["player": "\(owner)", "to": "\(start)", "error": "\(error)"])
        }
    }

    // MARK: Chapters

    /// Seeks the player that has an episode open (playing or paused; the one that changed
    /// last) `offset` chapters on: 1 the next, -1 the previous (or the start of this one, when
    /// more than a few seconds in). Returns the chapter it went to.
    func seekChapter(_ offset: Int) async throws -> FeedChapter {
        guard let player = players.playingEpisodes().first else {
            throw SteeringError(.noPlayer, "No media player has an episode of your library open, so there is no chapter to move to.")
        }
        let chapters = try await chapters(of: player.episodeID)
        guard !chapters.isEmpty else {
            throw SteeringError(.cannotTell, "The episode playing has no chapters.")
        }
        guard let target = ChapterSeek.target(chapters, from: player.position, offset: offset) else {
            throw SteeringError(.cannotTell, "The episode playing is in its last chapter; there is no next one.")
        }
        try await seek(player, to: target.start)
        return target
    }

    /// Moves a player to `seconds` of its track: `SetPosition` with its track id. A player that
    /// has only begun to open its file may ignore it (mpv-mpris does, silently, until the file
    /// is loaded), so it is told again until it says it went there (`Seeked`), a few times.
    private func seek(_ player: PlayingEpisode, to seconds: Double) async throws {
        for _ in 0..<Self.seekAttempts {
            guard let now = players.playingEpisodes().first(where: { $0.owner == player.owner && $0.episodeID == player.episodeID }) else { return }
            if abs(now.position - seconds) < 2 && now.since > player.since { return }
            guard let track = now.trackID else {
                throw SteeringError(.playerFailed, "The player names no track id (mpris:trackid), so it cannot be told where to go.")
            }
            do {
                try await players.setPosition(player.owner, track: track, to: seconds)
            } catch {
                throw SteeringError(.playerFailed, "The player \(player.owner) did not move: \(error)")
            }
            try? await RealTime.sleep(for: .milliseconds(250))
        }
        logger.notice("a media player did not say it moved", metadata: ["player": "\(player.owner)", "to": "\(seconds)"])
    }

    /// The episode's chapters, as `almanac episode show` lists them (from its chapters file,
    /// fetched once, or its feed).
    private func chapters(of episodeID: String) async throws -> [FeedChapter] {
        try await podcasts.episodeRecord(episodeID, chapters: chapters)?.chapters.sorted { $0.start < $1.start } ?? []
    }
}
