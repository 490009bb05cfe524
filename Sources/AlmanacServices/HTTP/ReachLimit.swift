/// Where a request for a file a feed names (a transcript, a chapters file) may connect: any
/// public address, and addresses of the feed's own reach when that is not public — a feed
/// read from this computer may name files on this computer, one from a private network
/// files on a private network, and no feed a multicast or reserved address. Checked by
/// `CurlTransfer` on each address it is about to connect to, at every hop of a redirect,
/// before a byte is sent (docs/security.md).
public struct ReachLimit: Sendable, Hashable {
    /// The reach of the address the feed was read from.
    public let feed: AddressReach

    /// The limit for the files of a feed read from an address of `feed`'s reach.
    public init(feed: AddressReach) {
        self.feed = feed
    }

    /// Whether an address of `reach` may be connected to.
    public func allows(_ reach: AddressReach) -> Bool {
        reach == .public || reach == feed && reach != .special
    }
}
