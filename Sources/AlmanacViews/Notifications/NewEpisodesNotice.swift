/// The words of a new-episodes notification: "3 new episodes" over one line per feed
/// ("Garden Weather: 2 new").
public struct NewEpisodesNotice: Sendable, Hashable {
    public let summary: String
    public let body: String

    /// - Parameters:
    ///   - feeds: each feed's title and how many new episodes it has, in order.
    ///   - markup: whether the server reads body markup (then `&`, `<`, `>` are escaped).
    public init(_ feeds: [(title: String, count: Int)], markup: Bool) {
        let total = feeds.reduce(0) { $0 + $1.count }
        summary = total == 1 ? "1 new episode" : "\(total) new episodes"
        let lines = feeds.prefix(8).map { "\($0.title): \($0.count) new" } + (feeds.count > 8 ? ["and \(feeds.count - 8) more feeds"] : [])
        let body = lines.joined(separator: "\n")
        self.body = markup ? Self.escaped(body) : body
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
