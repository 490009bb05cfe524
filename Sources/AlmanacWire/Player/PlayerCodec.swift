public import AlmanacModels
public import DBus
public import FoundationEssentials

/// What `org.almanac.Player1` reads from a client: `Sleep`'s options (`SleepRequest` is their
/// shape; the timer's and what plays are `SleepTimerProperty`'s and `NowPlaying.Wire`'s).
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
}
