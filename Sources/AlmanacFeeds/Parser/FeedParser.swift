public import AlmanacModels

/// Parses podcast feeds — RSS 2.0/0.9x, RDF (RSS 1.0) and Atom, with the iTunes,
/// Podcasting 2.0, Media RSS, Dublin Core and content namespaces — forgivingly and fast.
///
/// The parser works on bytes with its own tolerant XML scanner, so bare `&`, undeclared
/// prefixes, HTML entities, mismatched or unclosed tags and a feed cut off mid-item all
/// still give everything that can be read. It fails only when the input is no feed at all.
/// See `docs/feeds.md` for what it accepts and its limits.
public enum FeedParser {
    /// Parses `bytes` (a whole feed document). Relative URLs are resolved against `feedURL`
    /// when it is given.
    public static func parse(_ bytes: some Collection<UInt8>, feedURL: String? = nil) throws(FeedParseError) -> ParsedFeed {
        let result: Result<ParsedFeed, FeedParseError>? = bytes.withContiguousStorageIfAvailable { parse(buffer: $0, feedURL: feedURL) }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { parse(buffer: $0, feedURL: feedURL) }.get()
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>, feedURL: String?) -> Result<ParsedFeed, FeedParseError> {
        switch TextEncoding.prepare(buffer) {
        case .original(let start):
            var reader = FeedReader(bytes: buffer, start: start, feedURL: feedURL)
            return Result { () throws(FeedParseError) in try reader.read() }
        case .converted(let converted):
            return converted.withUnsafeBufferPointer { buffer in
                var reader = FeedReader(bytes: buffer, start: 0, feedURL: feedURL)
                return Result { () throws(FeedParseError) in try reader.read() }
            }
        }
    }

    /// Whether `parse` would take `bytes` for a feed, found without reading the whole feed
    /// (only up to its first `<rss>`, `<feed>`, `<channel>` or `<rdf:RDF>` element): for a
    /// daemon that hands a feed's bytes to a client to parse, or looks further when they are
    /// a web page.
    public static func looksLikeFeed(_ bytes: some Collection<UInt8>) -> Bool {
        let found: Bool? = bytes.withContiguousStorageIfAvailable { looksLikeFeed(buffer: $0) }
        if let found { return found }
        return Array(bytes).withUnsafeBufferPointer { looksLikeFeed(buffer: $0) }
    }

    private static func looksLikeFeed(buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        switch TextEncoding.prepare(buffer, strippingControls: false) {
        case .original(let start):
            var reader = FeedReader(bytes: buffer, start: start, feedURL: nil)
            return reader.findsFeedElement()
        case .converted(let converted):
            return converted.withUnsafeBufferPointer { buffer in
                var reader = FeedReader(bytes: buffer, start: 0, feedURL: nil)
                return reader.findsFeedElement()
            }
        }
    }
}
