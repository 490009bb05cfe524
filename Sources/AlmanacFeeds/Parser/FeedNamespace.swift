/// The XML namespaces a podcast feed draws on. Elements are matched by prefix: a prefix
/// declared (`xmlns:foo="…"`) with a namespace we know means that namespace; any other
/// prefix means what it conventionally does (`itunes:`, `podcast:`, `media:` …), declared
/// or not, because real feeds leave declarations out. Atom and unprefixed names share one
/// vocabulary, so RSS and Atom elements are understood in either kind of document.
enum FeedNamespace: UInt8 {
    case plain, itunes, podcast, media, content, dublinCore, rdf, googlePlay, syndication, podloveChapters, other

    /// The namespace a URI names, compared without scheme, case or trailing `/` or `#`.
    init?(uri: UnsafeBufferPointer<UInt8>) {
        var text = String(decoding: uri.lazy.map(ASCII.lowercased), as: UTF8.self)
        for scheme in ["http://", "https://"] where text.hasPrefix(scheme) {
            text.removeFirst(scheme.count)
        }
        while text.hasSuffix("/") || text.hasSuffix("#") || text.hasSuffix(" ") { text.removeLast() }
        switch text {
        case "www.itunes.com/dtds/podcast-1.0.dtd", "itunes.com/dtds/podcast-1.0.dtd":
            self = .itunes
        case "podcastindex.org/namespace/1.0", "github.com/podcastindex-org/podcast-namespace/blob/main/docs/1.0.md":
            self = .podcast
        case "search.yahoo.com/mrss", "video.search.yahoo.com/mrss", "tools.search.yahoo.com/mrss":
            self = .media
        case "www.w3.org/2005/atom", "purl.org/rss/1.0", "backend.userland.com/rss2", "purl.org/atom/ns":
            self = .plain
        case "purl.org/rss/1.0/modules/content":
            self = .content
        case "purl.org/dc/elements/1.1", "purl.org/dc/terms":
            self = .dublinCore
        case "www.w3.org/1999/02/22-rdf-syntax-ns":
            self = .rdf
        case "www.google.com/schemas/play-podcasts/1.0":
            self = .googlePlay
        case "purl.org/rss/1.0/modules/syndication":
            self = .syndication
        case "podlove.org/simple-chapters":
            self = .podloveChapters
        default:
            return nil
        }
    }

    /// What a prefix means when no declaration says otherwise.
    init(conventionalPrefix prefix: UnsafeBufferPointer<UInt8>) {
        switch String(decoding: prefix.lazy.map(ASCII.lowercased), as: UTF8.self) {
        case "itunes": self = .itunes
        case "podcast": self = .podcast
        case "media": self = .media
        case "atom", "atom10", "a10": self = .plain
        case "content": self = .content
        case "dc", "dcterms": self = .dublinCore
        case "rdf": self = .rdf
        case "googleplay": self = .googlePlay
        case "sy": self = .syndication
        case "psc": self = .podloveChapters
        default: self = .other
        }
    }
}
