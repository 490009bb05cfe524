/// The input is not a podcast feed at all; the message says what it is instead and what to do.
///
/// Anything that is a feed, however broken, parses: this error is only for documents with
/// no `<rss>`, `<feed>`, `<channel>` or `<rdf:RDF>` element.
public struct FeedParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of non-feed the input was.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Hashable { case empty, notXML, htmlPage, noFeedElement }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// Nothing but whitespace.
        public static let empty = Code(.empty)
        /// Text with no markup.
        public static let notXML = Code(.notXML)
        /// A web page.
        public static let htmlPage = Code(.htmlPage)
        /// XML of some other kind.
        public static let noFeedElement = Code(.noFeedElement)

        /// The code's name, such as `htmlPage`.
        public var description: String {
            switch value {
            case .empty: "empty"
            case .notXML: "notXML"
            case .htmlPage: "htmlPage"
            case .noFeedElement: "noFeedElement"
            }
        }
    }

    /// What kind of non-feed the input was.
    public let code: Code
    /// What happened and what to do, for a person.
    public let message: String

    /// An error of kind `code` that says `message`.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

    static let empty = FeedParseError(code: .empty, message: "The feed is empty: it holds nothing but blank space, or nothing at all. Check that it is the feed's address or file.")
    static let notXML = FeedParseError(
        code: .notXML,
        message: "This is not a podcast feed: the document has no XML markup. Check that the address is the feed's, not a download or a web page."
    )
    static let htmlPage = FeedParseError(
        code: .htmlPage,
        message: "This is a web page, not a podcast feed. Use the feed's own address, usually linked on the page as RSS."
    )

    static func noFeedElement(root: String) -> FeedParseError {
        let found = root.isEmpty ? "" : " (its first element is <\(root.prefix(40))>)"
        return FeedParseError(
            code: .noFeedElement,
            message: "This is not a podcast feed: the document has no <rss>, <feed> or <channel> element\(found)."
        )
    }
}
