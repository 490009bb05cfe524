public import AlmanacModels
import DBus

extension SyncReport: WireShaped {
    /// `Sync`'s answer: `subscribed as`, `unsubscribed as`, `episodesUpdated u`, `sent u`,
    /// `unreadFeeds a{ss}` (feed URL → why it could not be read).
    public struct Wire: Codable {
        var subscribed, unsubscribed: [String]
        var episodesUpdated, sent: UInt32
        var unreadFeeds: [String: String]
    }

    public var wire: Wire {
        Wire(subscribed: subscribed, unsubscribed: unsubscribed, episodesUpdated: UInt32(clamping: episodesUpdated), sent: UInt32(clamping: sent),
             unreadFeeds: unreadFeeds)
    }

    public init(wire: Wire) {
        self.init()
        (subscribed, unsubscribed, unreadFeeds) = (wire.subscribed, wire.unsubscribed, wire.unreadFeeds)
        (episodesUpdated, sent) = (Int(wire.episodesUpdated), Int(wire.sent))
    }
}
