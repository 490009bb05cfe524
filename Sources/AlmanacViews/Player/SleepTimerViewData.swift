public import AlmanacModels
public import FoundationEssentials

/// The sleep timer as `almanac sleep` and `almanac status` show it: "pauses in 29m 59s (at
/// the end of the episode)", or "off".
public struct SleepTimerViewData: Sendable, Hashable {
    /// One line: what it waits for and how long is left.
    public let summary: String
    /// `--json`: `{"set": b, "kind": s?, "pausesAt": Unix seconds?, "remaining": seconds?, "episode": s?}`.
    public let json: JSONValue

    public init(timer: SleepTimerState?, now: Date) {
        guard let timer else {
            summary = "off"
            json = .object(["set": .boolean(false)])
            return
        }
        let remaining = timer.pausesAt.map { max(0, $0.timeIntervalSince(now).rounded()) }
        let when = remaining.map { "pauses in " + compactDuration($0) } ?? "pauses"
        switch timer.kind {
        case "episode": summary = when + " (at the end of the episode)"
        case "chapter": summary = when + " (at the end of the chapter)"
        default: summary = when
        }
        json = .object(["set": .boolean(true), "kind": .string(timer.kind), "episode": .string(timer.episode),
                        "pausesAt": .unix(timer.pausesAt), "remaining": remaining.map { .integer(Int64($0)) } ?? .null])
    }
}
