public import AlmanacModels

/// `almanac stats`: how long was listened to over the last `days` local days — in all, per
/// podcast (most listened first) and per day (oldest first) — from the daemon's totals per
/// podcast and day.
public struct ListeningStatsViewData: Sendable, Hashable, JSONRepresentable {
    /// One podcast's or one day's time.
    public struct Line: Sendable, Hashable {
        /// The podcast's id, or the day ("2026-11-28").
        public let key: String
        /// The podcast's title ("" for a day).
        public let title: String
        public let seconds: Double
        /// "1:02:03", "45:00".
        public let time: String
    }

    public let days: Int
    public let podcasts: [Line]
    public let perDay: [Line]
    public let seconds: Double
    public let time: String

    public init(_ totals: [ListeningTotal], days: Int) {
        self.days = days
        var podcasts: [String: (title: String, seconds: Double)] = [:]
        var perDay: [String: Double] = [:]
        for total in totals {
            podcasts[total.podcastID, default: (total.podcastTitle, 0)].seconds += total.seconds
            perDay[total.day, default: 0] += total.seconds
        }
        self.podcasts = podcasts.map { Line(key: $0.key, title: $0.value.title, seconds: $0.value.seconds, time: clockDuration($0.value.seconds)) }
            .sorted { ($1.seconds, $0.key) < ($0.seconds, $1.key) }
        self.perDay = perDay.sorted { $0.key < $1.key }.map { Line(key: $0.key, title: "", seconds: $0.value, time: clockDuration($0.value)) }
        seconds = totals.reduce(0) { $0 + $1.seconds }
        time = clockDuration(seconds)
    }

    /// "Listened 1:02:03 in the last 7 days" ("today" for one day).
    public var heading: String {
        "Listened \(time) " + (days == 1 ? "today" : "in the last \(days) days")
    }

    /// `--json`: `days`, `seconds` and `time` in all, `podcasts` [{podcast, title, seconds,
    /// time}] most listened first, `perDay` [{day, seconds, time}] oldest first (days without
    /// listening left out).
    public var json: JSONValue {
        .object([
            "days": .integer(Int64(days)), "seconds": .number(seconds, decimals: 1), "time": .string(time),
            "podcasts": .array(podcasts.map { .object(["podcast": .string($0.key), "title": .string($0.title), "seconds": .number($0.seconds, decimals: 1), "time": .string($0.time)]) }),
            "perDay": .array(perDay.map { .object(["day": .string($0.key), "seconds": .number($0.seconds, decimals: 1), "time": .string($0.time)]) }),
        ])
    }
}

extension Table {
    /// `almanac stats`' podcasts: title, id, time. Too wide, the title is cut.
    public static func listeningPodcasts(_ stats: ListeningStatsViewData) -> Table {
        Table([TableColumn("Podcast", shrink: (minimum: 12, priority: 10)), TableColumn("ID", drop: 20), TableColumn("Time", alignment: .right)],
              rows: stats.podcasts.map { [StyledLine($0.title.isEmpty ? $0.key : $0.title, .bold), StyledLine($0.key), StyledLine($0.time)] })
    }

    /// `almanac stats`' days: day and time, oldest first.
    public static func listeningDays(_ stats: ListeningStatsViewData) -> Table {
        Table([TableColumn("Day"), TableColumn("Time", alignment: .right)],
              rows: stats.perDay.map { [StyledLine($0.key), StyledLine($0.time)] })
    }
}
