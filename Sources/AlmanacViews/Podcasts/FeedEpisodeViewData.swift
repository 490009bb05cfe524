public import AlmanacModels
public import FoundationEssentials

/// One episode of an inspected feed: "Episode 12: …  1:02:03  48 MB  · 3 days ago".
public struct FeedEpisodeViewData: Sendable, Hashable, Codable {
    public let guid: String
    public let title: String
    /// "3 days ago" within a month, else the day ("2024-01-09"); "unknown date".
    public let published: String
    /// "1:02:03", empty when the feed does not say.
    public let duration: String
    /// "48 MB", empty without an enclosure length.
    public let size: String
    /// "S2 E12", "trailer", empty for a plain episode.
    public let number: String

    public init(episode: ParsedEpisode, now: Date) {
        guid = episode.guid
        title = episode.displayTitle
        published = episode.published.map { Self.when(Date(timeIntervalSince1970: Double($0)), now: now) } ?? "unknown date"
        duration = episode.duration.map(clockDuration) ?? ""
        size = episode.enclosures.first?.length.map(Self.megabytes) ?? ""
        var number: [String] = []
        if let season = episode.season { number.append("S\(season)") }
        if let index = episode.episode { number.append("E\(index)") }
        if let type = episode.episodeType, type != "full" { number.append(type) }
        self.number = number.joined(separator: " ")
    }

    /// Bytes as "48 MB" (decimal units, as download tools say), "350 kB" below a megabyte.
    static func megabytes(_ bytes: Int64) -> String {
        guard bytes > 0 else { return "" }
        if bytes < 1_000_000 { return "\(max(1, bytes / 1000)) kB" }
        return fixedPoint(Double(bytes) / 1_000_000, decimals: 0) + " MB"
    }

    /// "3 days ago" for the last month, the day itself before that.
    static func when(_ date: Date, now: Date) -> String {
        let age = now.timeIntervalSince(date)
        guard age.isFinite, age >= 0, age < 30 * 86_400 else { return CalendarDay.at(date, utcOffset: 0) }
        return relativeTime(date, now: now)
    }

    /// The names `fields` has.
    public static let fieldNames = ["guid", "title", "published", "duration", "size", "number"]

    /// The fields a `--format` template can use.
    public var fields: [String: String] {
        ["guid": guid, "title": title, "published": published, "duration": duration, "size": size, "number": number]
    }
}
