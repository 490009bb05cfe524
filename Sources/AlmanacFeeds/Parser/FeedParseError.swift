public import AlmanacModels

/// The input is not a podcast feed at all; the message says what it is instead and what to do.
///
/// Anything that is a feed, however broken, parses: this error is only for documents with
/// no `<rss>`, `<feed>`, `<channel>` or `<rdf:RDF>` element.
public typealias FeedParseError = CodedError<FeedParseCode>

/// What kind of non-feed the input was (a client sees each as `NotAFeed`): `empty`, nothing
/// but whitespace; `notXML`, text with no markup; `htmlPage`, a web page; `noFeedElement`,
/// XML of some other kind.
public enum FeedParseCode: String, ErrorCode, CaseIterable {
    case empty, notXML, htmlPage, noFeedElement

    public static let defaultErrorName = ClientErrorName.notAFeed
}

extension CodedError where Kind == FeedParseCode {
    static var empty: FeedParseError {
        FeedParseError(.empty, "The feed is empty: it holds nothing but blank space, or nothing at all. Check that it is the feed's address or file.")
    }

    static var notXML: FeedParseError {
        FeedParseError(.notXML, "This is not a podcast feed: the document has no XML markup. Check that the address is the feed's, not a download or a web page.")
    }

    static var htmlPage: FeedParseError {
        FeedParseError(.htmlPage, "This is a web page, not a podcast feed. Use the feed's own address, usually linked on the page as RSS.")
    }

    static func noFeedElement(root: String) -> FeedParseError {
        let found = root.isEmpty ? "" : " (its first element is <\(root.prefix(40))>)"
        return FeedParseError(.noFeedElement, "This is not a podcast feed: the document has no <rss>, <feed> or <channel> element\(found).")
    }
}
