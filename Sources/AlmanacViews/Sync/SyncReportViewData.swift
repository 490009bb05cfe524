public import AlmanacModels

/// What one sync did, as `almanac sync now` says it: "synced with https://…: 2 podcasts
/// subscribed, 1 given up, 3 episodes updated, 4 changes sent" (or "nothing to change"),
/// and a line for each feed the server listed that could not be read.
public struct SyncReportViewData: Sendable, Hashable {
    public let summary: String
    /// "https://…/feed.xml: why", one per feed, sorted.
    public let unreadFeeds: [String]
    /// `subscribed`, `unsubscribed` (feed URLs), `episodesUpdated`, `sent`, `unreadFeeds` {url: why}.
    public let json: JSONValue

    public init(report: SyncReport, server: String) {
        var parts: [String] = []
        func count(_ number: Int, _ one: String, _ many: String) -> String { number == 1 ? "1 \(one)" : "\(number) \(many)" }
        if !report.subscribed.isEmpty { parts.append(count(report.subscribed.count, "podcast", "podcasts") + " subscribed") }
        if !report.unsubscribed.isEmpty { parts.append(count(report.unsubscribed.count, "podcast", "podcasts") + " given up") }
        if report.episodesUpdated > 0 { parts.append(count(report.episodesUpdated, "episode", "episodes") + " updated") }
        if report.sent > 0 { parts.append(count(report.sent, "change", "changes") + " sent") }
        summary = "synced with \(server): " + (parts.isEmpty ? "nothing to change" : parts.joined(separator: ", "))
        unreadFeeds = report.unreadFeeds.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        json = .object([
            "server": .string(server), "subscribed": .array(report.subscribed.map(JSONValue.string)),
            "unsubscribed": .array(report.unsubscribed.map(JSONValue.string)), "episodesUpdated": .integer(Int64(report.episodesUpdated)),
            "sent": .integer(Int64(report.sent)), "unreadFeeds": .object(report.unreadFeeds.mapValues(JSONValue.string)),
        ])
    }
}
