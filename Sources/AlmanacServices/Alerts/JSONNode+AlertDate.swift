import AlmanacFeeds
import FoundationEssentials

extension JSONNode {
    /// An ISO 8601 time within reason (2000 to 2100); `nil` for anything else.
    var date: Date? {
        guard let text = text(64), let date = try? Date(text, strategy: .iso8601),
              (946_684_800...4_102_444_800).contains(date.timeIntervalSince1970) else { return nil }
        return date
    }
}
