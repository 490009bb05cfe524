public import AlmanacCore
import AlmanacModels
public import DBus
import Locking
public import Logging
import Synchronization

/// Records what any media player plays, the way gPodder's mpris-listener does: it watches
/// `org.mpris.MediaPlayer2.*` names come and go, and when a player's `xesam:url` is a known
/// episode (its enclosure URL, or the `file://` URL of its download) it records the position
/// when the player pauses, stops, seeks, moves to another track or goes away, and every
/// `pollInterval` while it plays (what is kept, and when an episode counts as played, is the
/// podcasts document's `recordPlayback`). Players are untrusted: values of the wrong type are ignored.
/// What it records also goes into the listening history: a `ListeningRun` per playing
/// player counts the progress between its positions (never a seek, a move back or more than
/// the time that passed allows), handed to `recordListening`.
///
/// It also tells which downloads are being played (`FilesInUse`): the files whose `file://`
/// URL is a player's current track, whatever its status (a paused or stopped player still has
/// it open), so that no cleanup deletes them; and it says when a player moves on
/// (`whenTracksChange`).
///
/// No player holds up the bus or another player: what players say is queued per player on
/// the connection's thread, bounded (`PlayerInbox`), and handled by a worker of that player
/// alone, off that thread; every question to a player waits at most `answerTimeout`, and one
/// that does not answer is left alone for a while (its signals dropped, nothing asked).
public final class MPRISListener: FilesInUse, Service {
    static let prefix = "org.mpris.MediaPlayer2."
    static let path: ObjectPath = "/org/mpris/MediaPlayer2"
    static let rootInterface: InterfaceName = "org.mpris.MediaPlayer2"
    static let playerInterface: InterfaceName = "org.mpris.MediaPlayer2.Player"
    static let propertiesInterface: InterfaceName = .properties
    static let propertiesChanged: MemberName = "PropertiesChanged"
    static let seeked: MemberName = "Seeked"
    /// How long a player has to answer what the listener asks (`GetAll`): real players answer
    /// in milliseconds; this leaves room for a busy machine.
    static let answerTimeout: Duration = .seconds(2)

    /// What is known of one player (by its unique name).
    struct Player: Sendable {
        var url: String?
        var episodeID: String?
        /// `mpris:trackid`, which `SetPosition` names.
        var trackID: ObjectPath?
        /// Seconds, from `mpris:length`.
        var length: Double?
        var status = "Stopped"
        /// Seconds, as of `positionAt`.
        var position: Double = 0
        var positionAt = RealTime.now
        /// How fast it plays, from `Rate` (1: normal speed; a 1.5× player moves 1.5 s a second).
        var rate: Double = 1
        /// Its track counted as played while it played it, and steering was told (`PlayerChange.played`):
        /// once per track, whichever signal, poll or estimate got there first.
        var reachedPlayed = false
        /// Its listening run while it plays a known episode (`follow`).
        var run: ListeningRun?
        /// The watch of its signals (a match rule of its own), from its first answer (`hear`).
        var watch: SignalWatch?

        /// Where the player is now: its last known position, moved on at its rate while it plays.
        var estimatedPosition: Double {
            guard status == "Playing" else { return position }
            let elapsed = positionAt.duration(to: RealTime.now)
            return position + rate * (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
    }

    private let podcasts: PodcastsDocument
    let connection: Connection
    private let pollInterval: Duration
    let logger: Logger
    /// Everything the listener keeps, one value under one lock: one `Player` per player (by
    /// unique name: what it plays, its listening run, the watch of its signals), the watch of
    /// players' names, and whom it tells.
    struct State: Sendable {
        var players: [BusName: Player] = [:]
        /// The watch of players' names on the connection's thread, from `prepare` until `run` ends.
        var names: SignalWatch?
        /// Told when a player's track changes or a player leaves.
        var trackChanges: Callback?
        /// Told of what players do (`whenPlayersChange`).
        var playerChanges: PlayerChanges?
    }

    let state = Locked(State())
    /// What players said and the listener has not handled yet, per player.
    let inbox = PlayerInbox()
    /// Woken when a player starts playing a known episode: only then does the poll run.
    private let playing = Wakeup()

    public init(podcasts: PodcastsDocument, connection: Connection, pollInterval: Duration = .seconds(15),
                logger: Logger) {
        self.podcasts = podcasts
        self.connection = connection
        self.pollInterval = pollInterval
        self.logger = logger
    }

    /// Starts watching players' names (before the bus name is taken: the group awaits it),
    /// so that none that comes from then on is missed; they are sorted into the inbox on the
    /// connection's thread, in the order they come. A player's signals are heard once it has
    /// answered (`meet`).
    public func prepare() async throws {
        let inbox = self.inbox
        let watch = try await connection.onSignals(matching: MatchRule(sender: .bus, interface: .bus, member: "NameOwnerChanged", path: "/org/freedesktop/DBus")) { message in
            guard let change = try? NameOwnerChange(message), change.name.rawValue.hasPrefix(Self.prefix) else { return }
            if let old = change.oldOwner { inbox.vanished(old) }
            if let new = change.newOwner { inbox.appeared(new) }
        }
        state.withLock { $0.names = watch }
    }

    /// A `Service`: follows players (those on the bus now, looked for in the background, and
    /// those that come), each in a worker of its own while it has something waiting, until
    /// cancelled; then what each player was at is kept.
    public func run() async {
        await withDiscardingTaskGroup { group in
            // No timer while nothing plays: the loop waits until a player plays a known episode.
            group.addTask { [weak self, pollInterval, playing] in
                while !Task.isCancelled {
                    guard self?.anyPlaying == true else {
                        await playing.wait()
                        continue
                    }
                    try? await RealTime.sleep(for: pollInterval)
                    await self?.poll()
                }
            }
            // The players there are now.
            group.addTask { [connection, inbox] in
                let names = (try? await connection.call(.bus, path: "/org/freedesktop/DBus", interface: .bus,
                                                        method: "ListNames").arguments([String].self)) ?? []
                for name in names where name.hasPrefix(Self.prefix) {
                    guard !Task.isCancelled, let bus = try? BusName(name), let owner = try? await connection.nameOwner(of: bus) else { continue }
                    inbox.appeared(owner)
                }
            }
            // A worker for each player with something waiting (it ends when nothing does), and
            // the quiet spells of those that did not answer, waited out.
            for await ready in inbox.ready.stream {
                switch ready {
                case .work(let owner):
                    group.addTask { [weak self] in await self?.work(for: owner) }
                case .retry(let owner, let quiet):
                    group.addTask { [inbox] in
                        guard (try? await RealTime.sleep(for: quiet)) != nil else { return }
                        inbox.again(owner)
                    }
                }
            }
            group.cancelAll()
        }
        let (names, watches, owners) = state.withLock { ($0.names, $0.players.values.compactMap(\.watch), Array($0.players.keys)) }
        names?.cancel()
        for watch in watches { watch.cancel() }
        // What the players were at is kept.
        for owner in owners { await vanished(owner) }
    }

    /// Of `files`, those that are a player's current track (`file://` URLs).
    public func filesInUse(among files: Set<String>) -> Set<String> {
        let tracks = state.withLock { $0.players.values.compactMap(\.url) }
        return Set(tracks.compactMap(FileURL.path(of:))).intersection(files)
    }

    /// Calls `body` whenever a player's track changes or a player leaves the bus (a file it
    /// had open may be free now).
    public func whenTracksChange(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.trackChanges = Callback(body) }
    }

    private func tracksChanged() {
        state.withLock { $0.trackChanges }?()
    }

    /// Calls `body` with each thing a player does that steering cares for (`PlayerChange`),
    /// on the listener's task, in the order the player did them. `body` must not block.
    func whenPlayersChange(_ body: @escaping @Sendable (BusName, PlayerChange) -> Void) {
        state.withLock { $0.playerChanges = PlayerChanges(body: body) }
    }

    private func tell(_ owner: BusName, _ change: PlayerChange) {
        state.withLock { $0.playerChanges }?.body(owner, change)
    }

    /// What is known of each player that has an episode of the library as its track, the one
    /// that changed last first: where it is now (estimated at its rate), how long the episode
    /// is, how fast and whether it plays.
    func playingEpisodes() -> [PlayingEpisode] {
        state.withLock { state in
            state.players.compactMap { owner, player in
                player.episodeID.map { PlayingEpisode(owner: owner, episodeID: $0, trackID: player.trackID, position: player.estimatedPosition,
                                                      length: player.length, rate: player.rate, playing: player.status == "Playing", since: player.positionAt,
                                                      reachedPlayed: player.reachedPlayed) }
            }.sorted { $0.since > $1.since }
        }
    }

    // MARK: Events (each on its player's worker, in the order the player did them)

    /// A name `org.mpris.MediaPlayer2.*` has an owner, or a player's quiet spell is over:
    /// only such owners are players. It is asked what it plays, and once it answers its
    /// signals are heard — a match rule of its own, added only then, so a player that does not
    /// answer is not even routed to the daemon — and it is asked again, so that nothing it did
    /// in between is missed. One that does not answer is still a player, asked again later.
    /// A player first seen playing an episode is recorded where it says it is.
    func meet(_ owner: BusName) async {
        let known = state.withLock { state -> Bool in
            defer { if state.players[owner] == nil { state.players[owner] = Player() } }
            return state.players[owner] != nil
        }
        let first = await properties(of: owner)
        // No answer in time: left alone, asked again later. (An error is an answer.)
        guard !inbox.isQuiet(owner) else { return }
        if let first, known {
            await changed(owner, first)
        } else if let first {
            let track = resolve(first)
            if let player = update(owner, { apply(first, track: track, to: &$0) }), player.episodeID != nil {
                await record(player, of: owner, at: player.position)
            }
        }
        if !known { tell(owner, .moved) }
        guard await hear(owner), let again = await properties(of: owner) else { return }
        await changed(owner, again)
        if anyPlaying { playing.wake() }
        follow(owner)
    }

    func vanished(_ owner: BusName) async {
        guard let player = state.withLock({ $0.players.removeValue(forKey: owner) }) else { return }
        // Not heard any more; its listening run is in `player`, for `record`.
        player.watch?.cancel()
        await record(player, of: owner, at: player.estimatedPosition)
        follow(owner)
        if player.url != nil { tracksChanged() }
        tell(owner, .left)
    }

    /// `PropertiesChanged` of the player's interface (or, read afresh, all its properties).
    func changed(_ owner: BusName, _ changed: [String: Value]) async {
        guard let before = state.withLock({ $0.players[owner] }) else { return }
        let track = resolve(changed, known: before)
        let status = changed["PlaybackStatus"]?.stringValue
        // A position in the change itself (a player read afresh) needs no question.
        let said = changed["Position"]?.unwrapped.integerValue.map { max(0, Double($0) / 1e6) }
        // Paused: the player says where. Stopped: many players rewind to 0 first, so the estimate stands.
        let url = track.map(\.url) ?? before.url
        var paused: Double?
        if status == "Paused" {
            paused = said
            if paused == nil { paused = await position(of: owner, playing: url) }
        }
        let stopped = before.status == "Playing" && (status == "Paused" || status == "Stopped")
        let estimate = paused ?? before.estimatedPosition
        guard let after = update(owner, { apply(changed, track: track, to: &$0) }) else { return }
        if before.url != after.url {
            // Another track: the one before is recorded where it was left, and the new one starts where the player says.
            await record(before, of: owner, at: estimate)
            tracksChanged()
            // Unless a poll answered meanwhile (it is newer).
            if said == nil, after.episodeID != nil, let start = await position(of: owner, playing: after.url) {
                update(owner) { if $0.url == after.url && $0.positionAt == after.positionAt { ($0.position, $0.positionAt) = (start, RealTime.now) } }
            }
            tell(owner, .otherTrack(episodeID: after.episodeID))
        } else if stopped {
            update(owner) { $0.position = estimate; $0.positionAt = RealTime.now }
            await record(after, of: owner, at: estimate)
        }
        follow(owner)
        if before.status != after.status { tell(owner, .status(after.status)) }
        if before.rate != after.rate { tell(owner, .moved) }
    }

    /// `Seeked`: the player jumped to `microseconds`.
    func seeked(_ owner: BusName, to microseconds: Int64) async {
        var player = update(owner) { player in
            player.position = max(0, Double(microseconds) / 1e6)
            player.positionAt = RealTime.now
        }
        // mpv-mpris announces a track's Metadata before it knows its length and not again
        // once it does: whether the seek passed the played mark needs it.
        if let known = player, known.length == nil, let length = await progress(of: owner, playing: known.url)?.length {
            player = update(owner) { if $0.url == known.url { $0.length = length } }
        }
        // A jump: nothing of it is listening; the run begins again where it landed.
        state.withLock { $0.players[owner]?.run = nil }
        if let player { await record(player, of: owner, at: player.position, jumped: true) }
        follow(owner)
        tell(owner, .moved)
    }

    /// Whether `owner` is a player the listener knows (it has not left).
    func isPlayer(_ owner: BusName) -> Bool {
        state.withLock { $0.players[owner] != nil }
    }

    /// Whether a player plays a known episode (its position is then polled).
    private var anyPlaying: Bool {
        state.withLock { $0.players.values.contains { $0.status == "Playing" && $0.episodeID != nil } }
    }

    /// Asks each player that plays a known episode where it is, and records it. An answer is
    /// kept only if, when it comes, the player is still on that track and nothing newer was
    /// learnt while it was asked (a pause, a seek, another track, handled meanwhile): a late
    /// answer would otherwise put one episode's position on the next, or undo a pause.
    /// Each player is asked in a task of its own, so a slow one delays no other.
    private func poll() async {
        let playing = state.withLock { $0.players.filter { $0.value.status == "Playing" && $0.value.episodeID != nil }.map { ($0.key, $0.value.url, $0.value.positionAt) } }
        await withDiscardingTaskGroup { group in
            for (owner, url, asked) in playing {
                group.addTask { await self.ask(owner, playing: url, asked: asked) }
            }
        }
    }

    /// Asks `owner` where it is in `url` (and how long that is, when its `Metadata` did not
    /// say), and records it, unless something newer was learnt since `asked`. A length learnt
    /// so is told as `.moved` (when it plays past its played mark can be told now).
    private func ask(_ owner: BusName, playing url: String?, asked: ContinuousClock.Instant) async {
        guard let (at, length) = await progress(of: owner, playing: url) else { return }
        let (player, learnt) = state.withLock { state -> (Player?, Bool) in
            guard var player = state.players[owner], player.url == url, player.positionAt == asked else { return (nil, false) }
            let learnt = player.length == nil && length != nil
            (player.position, player.positionAt) = (at, RealTime.now)
            if learnt { player.length = length }
            state.players[owner] = player
            return (player, learnt)
        }
        guard let player else { return }
        await record(player, of: owner, at: at)
        if learnt { tell(owner, .moved) }
    }

    /// Asks `owner` where it is and records it, as a poll does, between polls: when its
    /// position estimate says its episode has come to count as played (`PlayerSteering`).
    func catchUp(_ owner: BusName) async {
        guard let (url, asked) = state.withLock({ $0.players[owner].map { ($0.url, $0.positionAt) } }) else { return }
        await ask(owner, playing: url, asked: asked)
    }

    // MARK: Helpers

    @discardableResult
    private func update(_ owner: BusName, _ change: (inout Player) -> Void) -> Player? {
        let player = state.withLock { state -> Player? in
            guard var player = state.players[owner] else { return nil }
            change(&player)
            state.players[owner] = player
            return player
        }
        if player?.status == "Playing" { playing.wake() }
        return player
    }

    /// The player's `Position` in seconds, or `nil` when it does not say or is no longer
    /// playing `url` (it moved to another track since: that position is not this track's).
    /// Asked with `GetAll`, so the position and the track come from the same moment.
    func position(of owner: BusName, playing url: String?) async -> Double? {
        await progress(of: owner, playing: url)?.position
    }

    /// The player's `Position` and its track's `mpris:length`, in seconds, as `position(of:playing:)`.
    private func progress(of owner: BusName, playing url: String?) async -> (position: Double, length: Double?)? {
        guard let properties = await properties(of: owner),
              let metadata = properties["Metadata"]?.stringKeyedEntries, metadata["xesam:url"]?.stringValue == url,
              let microseconds = properties["Position"]?.unwrapped.integerValue else { return nil }
        let length = metadata["mpris:length"]?.unwrapped.integerValue.map { Double($0) / 1e6 }.flatMap { $0 > 0 ? $0 : nil }
        return (max(0, Double(microseconds) / 1e6), length)
    }

    /// The track a player's `Metadata` names and the episode it is, if any (`nil`: no
    /// `Metadata` among `properties`). Looked up before the players' lock is taken; the same
    /// track as the player's known one is not looked up again (players resend `Metadata` often).
    private func resolve(_ properties: [String: Value], known player: Player? = nil) -> (url: String?, episodeID: String?)? {
        guard let metadata = properties["Metadata"]?.stringKeyedEntries else { return nil }
        let url = metadata["xesam:url"]?.stringValue
        if let player, player.url == url { return (url, player.episodeID) }
        return (url, url.flatMap { (try? podcasts.episode(playing: $0))??.id })
    }

    /// Reads what a player says of itself into `player`; values of the wrong type are ignored.
    private func apply(_ properties: [String: Value], track: (url: String?, episodeID: String?)?, to player: inout Player) {
        // The track first: another track starts at 0 unless the same answer says where it is
        // (a `GetAll` names the track and its `Position` together).
        if let metadata = properties["Metadata"]?.stringKeyedEntries, let track {
            if track.url != player.url {
                (player.url, player.episodeID) = track
                (player.position, player.positionAt) = (0, RealTime.now)
                player.reachedPlayed = false
            }
            player.trackID = metadata["mpris:trackid"]?.unwrapped.stringValue.flatMap { try? ObjectPath($0) }
            player.length = metadata["mpris:length"]?.unwrapped.integerValue.map { Double($0) / 1e6 }.flatMap { $0 > 0 ? $0 : nil }
        }
        if let status = properties["PlaybackStatus"]?.stringValue, ["Playing", "Paused", "Stopped"].contains(status) {
            if player.status == "Playing" {
                (player.position, player.positionAt) = (player.estimatedPosition, RealTime.now)
            } else if status == "Playing" {
                // Playing again: the position moves on from now, not from when it stopped moving.
                player.positionAt = RealTime.now
            }
            player.status = status
        }
        if let microseconds = properties["Position"]?.unwrapped.integerValue {
            (player.position, player.positionAt) = (max(0, Double(microseconds) / 1e6), RealTime.now)
        }
        // MPRIS allows any positive rate (players offer 0.25× to 4×); 0 means paused, which
        // PlaybackStatus already says. The position so far moved at the old rate.
        if case .double(let rate)? = properties["Rate"]?.unwrapped, rate.isFinite, rate > 0, rate <= 100, rate != player.rate {
            (player.position, player.positionAt) = (player.estimatedPosition, RealTime.now)
            player.rate = rate
        }
    }

    /// Begins, follows or ends `owner`'s listening run as the player now is: one runs while it
    /// plays a known episode, from where it is then, its bound following the player's rate.
    private func follow(_ owner: BusName) {
        state.withLock { state in
            guard var player = state.players[owner] else { return }
            defer { state.players[owner] = player }
            guard player.status == "Playing", let episodeID = player.episodeID else {
                player.run = nil
                return
            }
            if var run = player.run, run.episodeID == episodeID {
                run.allow(rate: player.rate)
                player.run = run
            } else {
                player.run = ListeningRun(episodeID: episodeID, from: player.position, at: player.positionAt, rate: player.rate)
            }
        }
    }

    /// Hands where a player (`owner`) is in its episode to the podcasts document, whose rules say
    /// what is kept (and when the episode counts as played), and what its listening run
    /// counts as listened since the last position to the listening history.
    /// On the document's owner, awaited: this runs in a task of Swift's pool, which must not
    /// wait on a thread for the owner's burst. `jumped`: the position is where a seek landed.
    private func record(_ player: Player, of owner: BusName, at position: Double, jumped: Bool = false) async {
        guard let episodeID = player.episodeID else { return }
        let listened = state.withLock { state -> Double in
            // A player that left (`vanished`) brings its run along.
            let known = state.players[owner] != nil
            guard var run = known ? state.players[owner]?.run : player.run, run.episodeID == episodeID else { return 0 }
            defer { state.players[owner]?.run = run }
            return run.reach(position, at: RealTime.now)
        }
        do {
            let mark = try await podcasts.withOwner { [podcasts] in
                try podcasts.recordListening(listened, to: episodeID)
                try podcasts.recordPlayback(of: episodeID, at: position, length: player.length)
                return try podcasts.playedMark(of: episodeID, length: player.length)
            }
            if let mark, position >= mark { reachedPlayed(owner, playing: player.url, episodeID, jumped: jumped) }
        } catch {
            logger.error("could not record the position a media player reported", metadata: ["episode": "\(episodeID)", "error": "\(error)"])
        }
    }

    /// `owner`'s episode counts as played: steering is told (`PlayerChange.played`), once per
    /// track, when the player still has it open and plays it (one paused there is left be: the
    /// user stopped it; the position estimate finds it when it plays again).
    private func reachedPlayed(_ owner: BusName, playing url: String?, _ episodeID: String, jumped: Bool) {
        let first = state.withLock { state in
            guard var player = state.players[owner], player.url == url, player.status == "Playing", !player.reachedPlayed else { return false }
            player.reachedPlayed = true
            state.players[owner] = player
            return true
        }
        if first { tell(owner, .played(episodeID: episodeID, jumped: jumped)) }
    }
}
