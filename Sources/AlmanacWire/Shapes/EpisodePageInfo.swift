public import AlmanacModels
import DBus

/// What `ListEpisodes` answers beside its page: `total u`, `nextCursor s` (absent on the
/// last page), and `revision t`, the podcasts document's when the page was read.
public struct EpisodePageInfo: WireShaped, Codable, Sendable, Hashable {
    public typealias Wire = EpisodePageInfo
    public var total: UInt32
    public var nextCursor: String?
    public var revision: UInt64?

    public init(_ page: EpisodePage, revision: UInt64?) {
        total = UInt32(clamping: page.total)
        nextCursor = page.nextCursor
        self.revision = revision
    }
}
