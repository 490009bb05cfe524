/// The words of a new-episodes notification: "3 new episodes" over one line per feed
/// ("Garden Weather: 2 new"), as plain text (almanacd's `DesktopNotifications` escapes the
/// body for a server that reads markup, as it does every notice's).
public struct NewEpisodesNotice: Sendable, Hashable {
    public let summary: String
    public let body: String

    /// - Parameter feeds: each feed's title and how many new episodes it has, in order.
    public init(_ feeds: [(title: String, count: Int)]) {
        let total = feeds.reduce(0) { $0 + $1.count }
        summary = total == 1 ? "1 new episode" : "\(total) new episodes"
        let lines = feeds.prefix(8).map { "\($0.title): \($0.count) new" } + (feeds.count > 8 ? ["and \(feeds.count - 8) more feeds"] : [])
        body = lines.joined(separator: "\n")
    }
}
