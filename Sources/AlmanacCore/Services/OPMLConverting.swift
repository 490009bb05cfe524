public import AlmanacModels
/// Reads and writes OPML subscription lists for `Podcasts1.ImportOPML`/`ExportOPML`; the
/// daemon gives the podcasts adapter one (the XML lives with the feed parser).
public protocol OPMLConverting: Sendable {
    /// The `(title, feedURL)` pairs an OPML file lists; throws `FeedInspectionError.notAFeed`
    /// when the bytes are not OPML.
    func subscriptions(fromOPML bytes: [UInt8]) throws -> [(title: String, feedURL: String)]
    /// An OPML document listing `podcasts`.
    func opml(_ podcasts: [Podcast]) -> String
}
