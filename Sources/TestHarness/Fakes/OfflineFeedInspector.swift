public import AlmanacCore
public import AlmanacModels

/// Reads no feeds (a fake of our own protocols): what the in-process server inspects feeds
/// and OPML with when a test reads none. Every inspection throws
/// `FeedInspectionError.unreadable`, every OPML import `notAFeed`; an export lists the feeds'
/// URLs one a line.
public struct OfflineFeedInspector: FeedInspecting, OPMLConverting {
    public init() {}

    public func inspect(url: String) async throws -> ParsedFeed {
        throw FeedInspectionError.unreadable("This test reads no feeds (\(url.prefix(80))).")
    }

    public func inspect(bytes: [UInt8], baseURL: String?) throws -> ParsedFeed {
        throw FeedInspectionError.unreadable("This test reads no feeds (\(bytes.count) bytes).")
    }

    public func subscriptions(fromOPML bytes: [UInt8]) throws -> [(title: String, feedURL: String)] {
        throw FeedInspectionError.notAFeed("This test reads no OPML (\(bytes.count) bytes).")
    }

    public func opml(_ podcasts: [Podcast]) -> String {
        podcasts.map(\.feedURL).joined(separator: "\n")
    }
}
