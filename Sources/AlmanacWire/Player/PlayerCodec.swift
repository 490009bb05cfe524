public import AlmanacModels
public import DBus
public import FoundationEssentials

/// `org.almanac.Player1`'s values both ways: the sleep timer's request and its state, a chapter.
public enum PlayerCodec {
    /// The keys `Sleep` takes: `seconds` (a number) or `end` (`episode`, `chapter`).
    public static let sleepKeys = ["seconds", "end"]

    /// `Sleep`'s options as a timer; `InvalidArgs` (a `BusError`, or the timer's own
    /// `SubmissionError`) for anything else.
    public static func sleepTimer(_ options: [String: Value], now: Date) throws -> SleepTimer {
        let reader = try OptionsReader(options, allowed: sleepKeys, what: "sleep timer option")
        let seconds = try reader.number("seconds"), end = try reader.string("end")
        switch (seconds, end) {
        case (let seconds?, nil):
            return try SleepTimer.after(seconds, now: now)
        case (nil, "episode"?): return .endOfEpisode
        case (nil, "chapter"?): return .endOfChapter
        case (nil, let end?): throw BusError.invalidArgs("'end' is 'episode' or 'chapter', not '\(end.prefix(80))'.")
        default: throw BusError.invalidArgs("A sleep timer takes 'seconds' (1 to 86400) or 'end' ('episode' or 'chapter'), one of them.")
        }
    }

    /// `Sleep`'s options for a timer of `seconds`, or to the end of the episode or chapter.
    public static func sleepOptions(seconds: Double? = nil, end: String? = nil) -> [String: Value] {
        if let seconds { return ["seconds": .double(seconds)] }
        return end.map { ["end": .string($0)] } ?? [:]
    }

    /// The `SleepTimer` property: `kind s` (`time`, `episode`, `chapter`), `pausesAt x` (Unix
    /// seconds; 0 while it cannot be told), `player s`, `episode s`; empty when none is set.
    /// A moment past what an `Int64` holds (a player that says it plays at 10⁻³⁰⁰× is at the
    /// end of its episode in forever) cannot be told either: `Int64(exactly:)`, never `Int64(_:)`,
    /// which traps.
    public static func encode(timer: SleepTimer?, player: String, episode: String, pausesAt: Date?) -> [String: Value] {
        guard let timer else { return [:] }
        return ["kind": .string(timer.kind), "pausesAt": .int64(pausesAt.flatMap { Int64(exactly: $0.timeIntervalSince1970.rounded()) } ?? 0),
                "player": .string(player), "episode": .string(episode)]
    }

    /// The `SleepTimer` property read back; `nil` when none is set.
    public static func decodeTimer(_ value: [String: Value]) -> SleepTimerState? {
        guard let kind = value["kind"]?.stringValue else { return nil }
        let at = value["pausesAt"]?.unwrapped.integerValue ?? 0
        return SleepTimerState(kind: kind, pausesAt: at > 0 ? Date(timeIntervalSince1970: Double(at)) : nil, episode: value["episode"]?.stringValue ?? "")
    }

    /// A chapter as `SeekChapter` answers: `start d`, `title s`.
    public static func encode(_ chapter: FeedChapter) -> [String: Value] {
        ["start": .double(chapter.start), "title": .string(chapter.title)]
    }

    /// `SeekChapter`'s answer read back.
    public static func decodeChapter(_ value: [String: Value]) -> FeedChapter? {
        guard case .double(let start)? = value["start"]?.unwrapped else { return nil }
        return FeedChapter(start: start, title: value["title"]?.stringValue ?? "")
    }

    /// The `NowPlaying` property: `episode s`, `title s`, `podcast s` (its title), `status s`,
    /// `position d` (seconds at `at`), `at d` (Unix seconds), `rate d`, `length d` (0:
    /// unknown), `chapter s` and `chapterStart d` (when a chapter plays); `{}` when no player
    /// has an episode open.
    public static func encode(_ playing: NowPlaying?) -> [String: Value] {
        guard let playing else { return [:] }
        var fields: [String: Value] = [
            "episode": .string(playing.episodeID), "title": .string(playing.title), "podcast": .string(playing.podcastTitle),
            "status": .string(playing.status), "position": .double(playing.position), "at": .double(playing.at.timeIntervalSince1970),
            "rate": .double(playing.rate), "length": .double(playing.length ?? 0),
        ]
        if let chapter = playing.chapter {
            fields["chapter"] = .string(chapter.title)
            fields["chapterStart"] = .double(chapter.start)
        }
        return fields
    }

    /// The `NowPlaying` property read back; `nil` when nothing plays (or it is not what `encode` gives).
    public static func decodeNowPlaying(_ fields: [String: Value]) -> NowPlaying? {
        func number(_ key: String) -> Double? {
            guard case .double(let value)? = fields[key]?.unwrapped, value.isFinite else { return nil }
            return value
        }
        guard let episode = fields["episode"]?.stringValue, let status = fields["status"]?.stringValue,
              let position = number("position"), let at = number("at") else { return nil }
        let chapter = fields["chapter"]?.stringValue.map { FeedChapter(start: number("chapterStart") ?? 0, title: $0) }
        return NowPlaying(episodeID: episode, title: fields["title"]?.stringValue ?? "", podcastTitle: fields["podcast"]?.stringValue ?? "",
                          status: status, position: position, at: Date(timeIntervalSince1970: at), rate: number("rate") ?? 1,
                          length: number("length").flatMap { $0 > 0 ? $0 : nil }, chapter: chapter)
    }
}
