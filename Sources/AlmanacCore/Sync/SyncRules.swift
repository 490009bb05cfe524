public import FoundationEssentials
public import AlmanacModels

/// The rules of the sync, as pure functions: what a local change becomes on the server, what
/// a server's action does here, which of several actions wins, and what input is accepted.
/// No network, no disk: `SyncRulesTests` checks them all.
public enum SyncRules {
    // MARK: Local changes → actions

    /// The action that tells the server an episode's play state is now `played` at `position`
    /// (seconds), with `previous` the state the sync knew; `nil` when the server knows this
    /// already (same mark, position within a second) or the episode has no audio (the API
    /// names episodes by their enclosure). Played becomes `play` at the end (`position` =
    /// `total` = its length, or the position when the length is unknown); unplayed at the
    /// start becomes `new`; any other position a `play` (`started` where the sync last knew it).
    public static func action(for episode: Episode, played: Bool, position: Double, previous: SyncedEpisode?, podcastURL: String,
                              at time: Date) -> (action: EpisodeAction, synced: SyncedEpisode)? {
        // Whole seconds from here on: a position or length out of range (a client's, a feed's,
        // one kept by an older Almanac) would trap when converted, so none is sent.
        let range = 0...PlayStateSubmission.maximumPosition
        guard let audio = episode.audioURL, !audio.isEmpty, position.isFinite, range.contains(position) else { return nil }
        if let previous, previous.played == played, abs(previous.position - position) < 1 { return nil }
        let length = episode.duration.flatMap { $0.isFinite && $0 >= 1 && range.contains($0) ? Int($0.rounded()) : nil }
        let seconds = Int(position.rounded())
        let before = previous?.position ?? 0
        let started = min(before.isFinite && range.contains(before) ? Int(before.rounded()) : 0, seconds)
        let action: EpisodeAction
        if played {
            let end = length ?? max(seconds, 1)
            action = EpisodeAction(podcast: podcastURL, episode: audio, kind: .play, timestamp: time,
                                   started: min(started, end), position: end, total: end)
        } else if seconds < 1 {
            action = EpisodeAction(podcast: podcastURL, episode: audio, kind: .new, timestamp: time)
        } else if let length {
            action = EpisodeAction(podcast: podcastURL, episode: audio, kind: .play, timestamp: time,
                                   started: started, position: min(seconds, length), total: length)
        } else {
            // No length known: `started` and `total` go together in the API, so neither is sent.
            action = EpisodeAction(podcast: podcastURL, episode: audio, kind: .play, timestamp: time, position: seconds)
        }
        return (action, SyncedEpisode(episodeID: episode.id, played: played, position: position, timestamp: action.timestamp))
    }

    /// The action for a finished download (`file` set) or a deleted one; `nil` without audio.
    public static func action(for episode: Episode, file: String?, podcastURL: String, at time: Date) -> EpisodeAction? {
        guard let audio = episode.audioURL, !audio.isEmpty else { return nil }
        return EpisodeAction(podcast: podcastURL, episode: audio, kind: file == nil ? .delete : .download, timestamp: time)
    }

    // MARK: Server actions → local changes

    /// What a server's action does to `episode`: a `play` sets the position, and past the
    /// `playedAt` share of its length (the action's `total`, else the feed's duration) marks
    /// it played; `new` marks it unplayed at the start. `download` and `delete` change
    /// nothing here (they say where a file is on another device). `nil`: nothing to do. The
    /// caller has checked that the action is newer than what the sync knew (`isNewer`).
    public static func submission(for action: EpisodeAction, on episode: Episode, playedAt: Double) -> PlayStateSubmission? {
        switch action.kind {
        case .play:
            guard let position = action.position, position >= 0 else { return nil }
            let length = action.total.flatMap { $0 > 0 ? Double($0) : nil } ?? episode.duration
            let seconds = Double(position)
            if let length, length > 0, seconds >= length * playedAt {
                return PlayStateSubmission(episodeID: episode.id, played: true, position: min(seconds, length))
            }
            return PlayStateSubmission(episodeID: episode.id, position: seconds)
        case .new:
            return PlayStateSubmission(episodeID: episode.id, played: false, position: 0)
        case .download, .delete:
            return nil
        }
    }

    /// Whether a server's action at `time` is newer than what the sync knew of the episode:
    /// the newest wins, and an equal time is the same change coming back (so it does nothing).
    public static func isNewer(_ time: Date, than known: SyncedEpisode?) -> Bool {
        guard let known else { return true }
        return time > known.timestamp
    }

    /// Of many actions, the newest play-state action (`play`, `new`) of each episode, oldest
    /// first; of equal times, the later in the list.
    public static func newestPlayState(_ actions: [EpisodeAction]) -> [EpisodeAction] {
        var newest: [String: (index: Int, action: EpisodeAction)] = [:]
        for (index, action) in actions.enumerated() where action.isPlayState {
            let key = action.podcast + "\n" + action.episode
            if let kept = newest[key], kept.action.timestamp > action.timestamp { continue }
            newest[key] = (index, action)
        }
        return newest.values.sorted { ($0.action.timestamp, $0.index) < ($1.action.timestamp, $1.index) }.map(\.action)
    }

    /// How long a server's action for an episode not in the library yet is kept.
    public static let keptActionLifetime: TimeInterval = 30 * 86_400
    /// The most such actions kept (the newest).
    public static let maximumKeptActions = 1_000

    /// Of the server's actions for episodes not in the library yet, those worth keeping for
    /// later syncs: at most `maximumKeptActions`, the newest, none older than
    /// `keptActionLifetime`, oldest first.
    public static func keptActions(_ actions: [EpisodeAction], now: Date) -> [EpisodeAction] {
        let oldest = now.addingTimeInterval(-keptActionLifetime)
        let recent = actions.filter { $0.timestamp >= oldest }.sorted { $0.timestamp < $1.timestamp }
        return Array(recent.suffix(maximumKeptActions))
    }

    /// The subscription changes of `answer` (since the last answer's timestamp) with those of
    /// `earlier` (since a second before) that it does not name: a change stamped in the very
    /// second of the last answer, which a server comparing whole seconds with `>` gives only
    /// from the second before. For a URL `answer` names, `answer` decides: `earlier` may have
    /// lost a later change in a net difference (a feed added in that second and removed
    /// since is neither added nor removed from before it). The timestamp is `answer`'s.
    public static func subscriptionChanges(_ answer: SubscriptionChanges, earlier: SubscriptionChanges) -> SubscriptionChanges {
        let named = Set(answer.add).union(answer.remove)
        return SubscriptionChanges(add: answer.add + earlier.add.filter { !named.contains($0) },
                                   remove: answer.remove + earlier.remove.filter { !named.contains($0) }, timestamp: answer.timestamp)
    }

    // MARK: The queue → uploads

    /// The subscription changes among queued entries, the last change of each URL winning:
    /// URLs to add, URLs to remove (never the same one in both), and the entries they cover.
    public static func subscriptionUpload(_ entries: [SyncQueueEntry]) -> (add: [String], remove: [String], ids: [Int64]) {
        var last: [String: (order: Int, subscribe: Bool)] = [:]
        var ids: [Int64] = []
        for (order, entry) in entries.enumerated() {
            switch entry.item {
            case .subscribe(let url): last[url] = (order, true)
            case .unsubscribe(let url): last[url] = (order, false)
            default: continue
            }
            ids.append(entry.id)
        }
        let ordered = last.sorted { $0.value.order < $1.value.order }
        return (ordered.filter { $0.value.subscribe }.map(\.key), ordered.filter { !$0.value.subscribe }.map(\.key), ids)
    }

    /// The queued subscription change of each URL that is still to be sent: `true` subscribe,
    /// `false` unsubscribe. A server's change of a URL with a change waiting here is not
    /// applied: the local one is newer than the last sync.
    public static func pendingSubscriptions(_ entries: [SyncQueueEntry]) -> [String: Bool] {
        var pending: [String: Bool] = [:]
        for entry in entries {
            switch entry.item {
            case .subscribe(let url): pending[url] = true
            case .unsubscribe(let url): pending[url] = false
            default: continue
            }
        }
        return pending
    }

    /// Actions to send for queued ones: of each episode, only the newest play-state action and
    /// the newest download action matter (a player reports its position every few seconds;
    /// the server needs the last).
    public static func coalesced(_ actions: [EpisodeAction]) -> [EpisodeAction] {
        var newest: [String: (index: Int, action: EpisodeAction)] = [:]
        for (index, action) in actions.enumerated() {
            let key = (action.isPlayState ? "p\n" : "d\n") + action.podcast + "\n" + action.episode
            if let kept = newest[key], kept.action.timestamp > action.timestamp { continue }
            newest[key] = (index, action)
        }
        return newest.values.sorted { ($0.action.timestamp, $0.index) < ($1.action.timestamp, $1.index) }.map(\.action)
    }

    // MARK: Clocks

    /// Throws `SyncError.clock` when the server's clock is more than `tolerance` seconds from
    /// this computer's: newest-wins compares times from both, and a server that keeps actions
    /// "from the future" away from other devices would lose them.
    public static func checkClock(server: Date?, local: Date, tolerance: Double) throws {
        guard let server else { return }
        let apart = server.timeIntervalSince(local)
        guard abs(apart) > tolerance else { return }
        throw SyncError(.clock, "The server's clock and this computer's are \(duration(abs(apart))) apart (the server says \(utc(server)), this computer \(utc(local))), and the newest change could not be told. Set the clock that is wrong (here: `timedatectl set-ntp true`) and sync again; nothing was changed.")
    }

    /// "3 h 20 min", "12 min", "45 s".
    static func duration(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        guard whole >= 60 else { return "\(whole) s" }
        // To the nearest minute: a server's clock is read to the second, rounded down.
        let minutes = Int((seconds / 60).rounded())
        if minutes >= 1_440 { return "\(minutes / 1_440) d \(minutes % 1_440 / 60) h" }
        if minutes >= 60 { return "\(minutes / 60) h \(minutes % 60) min" }
        return "\(minutes) min"
    }

    /// `2026-11-23 07:45:00 UTC`.
    public static func utc(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - day * 86_400
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return CalendarDay.string(daysSinceEpoch: day) + " \(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60)) UTC"
    }

    // MARK: Input

    /// The server's address as kept: http(s), a host, no user name or password, no query,
    /// no trailing slash. Throws `SyncError.invalid` saying what is wrong.
    public static func server(_ text: String) throws -> String {
        var text = text.trimmed
        guard !text.isEmpty else { throw SyncError(.invalid, "Give the sync server's address, such as https://gpodder.net or https://cloud.example.org.") }
        if !text.contains("://") { text = "https://" + text }
        let lower = text.lowercased()
        guard lower.hasPrefix("https://") || lower.hasPrefix("http://") else {
            throw SyncError(.invalid, "'\(text.prefix(200))' is not a server address; give one such as https://gpodder.net or https://cloud.example.org.")
        }
        guard FeedCredentials.of(text) == nil, !text.contains("@") else {
            throw SyncError(.invalid, "Give the server's address without a user name or password; the user name is its own argument and the password is asked for.")
        }
        guard !text.contains("?"), !text.contains("#"), !text.contains(" "), text.utf8.count <= 1_000 else {
            throw SyncError(.invalid, "'\(text.prefix(200))' is not a server address; give one such as https://gpodder.net.")
        }
        while text.hasSuffix("/") { text.removeLast() }
        let host = text.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false).dropFirst(2).first ?? ""
        guard !host.isEmpty else { throw SyncError(.invalid, "'\(text.prefix(200))' has no host name; give one such as https://gpodder.net.") }
        // Kept and shown as given: a path that walks ('.', '..', '//') would be neither.
        let path = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst(3)
        guard !path.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw SyncError(.invalid, "'\(text.prefix(200))' has '.', '..' or '//' in its path; give the server's address as it is, such as https://cloud.example.org/nextcloud.")
        }
        return text
    }

    /// A user name as the API's paths take it (1–200 bytes, no `/`, no control characters).
    public static func user(_ text: String) throws -> String {
        let user = text.trimmed
        guard !user.isEmpty, user.utf8.count <= 200, !user.contains("/"), !user.hasControlCharacters else {
            throw SyncError(.invalid, "A user name has 1 to 200 bytes and no '/'.")
        }
        return user
    }

    /// A device ID as the API requires (`[\w.-]+`): letters, digits, `_`, `.`, `-`, at most 64.
    public static func device(_ text: String) throws -> String {
        let device = text.trimmed
        let allowed = device.unicodeScalars.allSatisfy { scalar in
            (scalar.value >= 0x30 && scalar.value <= 0x39) || (scalar.value >= 0x41 && scalar.value <= 0x5A) || (scalar.value >= 0x61 && scalar.value <= 0x7A)
                || scalar == "_" || scalar == "." || scalar == "-"
        }
        guard !device.isEmpty, device.utf8.count <= 64, allowed else {
            throw SyncError(.invalid, "'\(device.prefix(80))' is not a device ID: use letters, digits, '_', '.' and '-' (at most 64), such as almanac-laptop.")
        }
        return device
    }

    /// A device ID made from a host name: `almanac-<host>`, with what the API refuses left out.
    public static func defaultDevice(hostName: String) -> String {
        let host = String(hostName.unicodeScalars.filter { scalar in
            (scalar.value >= 0x30 && scalar.value <= 0x39) || (scalar.value >= 0x41 && scalar.value <= 0x5A) || (scalar.value >= 0x61 && scalar.value <= 0x7A)
                || scalar == "-" || scalar == "_"
        }.map(Character.init).prefix(48))
        return host.isEmpty ? "almanac" : "almanac-" + host.lowercased()
    }
}
