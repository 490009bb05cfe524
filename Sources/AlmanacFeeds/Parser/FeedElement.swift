/// The elements the feed reader acts on; everything else is `.other`.
enum FeedElement: UInt8 {
    case other
    case html
    // Structure
    case rss, rdf, channel, feed, item, entry, image, author, itunesOwner, mediaGroup, mediaContent
    // RSS and Atom
    case title, link, description, guid, pubDate, enclosure, url, language, name, category
    case summary, content, subtitle, published, updated, id, logo, icon, managingEditor
    // iTunes
    case itunesImage, itunesAuthor, itunesSummary, itunesSubtitle, itunesExplicit, itunesDuration, itunesEpisodeType
    case itunesSeason, itunesEpisode, itunesCategory, itunesNewFeedURL, itunesName, itunesTitle, itunesType
    // Podcasting 2.0
    case podcastChapters, podcastTranscript, podcastPerson, podcastFunding, podcastSeason, podcastEpisode, podcastLocked
    // Others
    case mediaThumbnail, contentEncoded, dublinCoreDate, dublinCoreCreator, dublinCoreLanguage, googlePlayImage
    // How often to read the feed: RSS `ttl`, and the syndication module's `sy:updatePeriod`/`sy:updateFrequency`
    case ttl, syUpdatePeriod, syUpdateFrequency
    // Podlove Simple Chapters
    case pscChapters, pscChapter

    /// Whether this element, met inside a description that holds HTML, means the description
    /// was never closed. Names HTML shares (`<image>` in SVG, `<summary>`) do not.
    var endsMarkup: Bool {
        switch self {
        case .other, .html, .image, .content, .summary, .name, .url, .author, .category: false
        default: true
        }
    }

    /// The element a qualified name means, given the namespace of its prefix. Case is ignored.
    static func classify(namespace: FeedNamespace, localName: UnsafeBufferPointer<UInt8>) -> FeedElement {
        guard namespace != .other, localName.count <= 16 else { return .other }
        return table[Key(namespace: namespace, name: localName)] ?? .other
    }

    /// A namespace and a lowercased local name of up to 16 bytes, packed.
    private struct Key: Hashable {
        var namespace: UInt8
        var low: UInt64 = 0
        var high: UInt64 = 0

        init(namespace: FeedNamespace, name: some Collection<UInt8>) {
            self.namespace = namespace.rawValue
            for (offset, byte) in name.enumerated() {
                let lowered = UInt64(ASCII.lowercased(byte))
                if offset < 8 { low |= lowered << (8 * UInt64(offset)) } else { high |= lowered << (8 * UInt64(offset - 8)) }
            }
        }
    }

    private static let table: [Key: FeedElement] = {
        let names: [(FeedNamespace, String, FeedElement)] = [
            (.plain, "html", .html), (.plain, "rss", .rss), (.plain, "rdf", .rdf), (.rdf, "rdf", .rdf),
            (.plain, "channel", .channel), (.plain, "feed", .feed), (.plain, "item", .item), (.plain, "entry", .entry),
            (.plain, "image", .image), (.plain, "author", .author), (.plain, "title", .title), (.plain, "link", .link),
            (.plain, "description", .description), (.plain, "guid", .guid), (.plain, "pubdate", .pubDate),
            (.plain, "enclosure", .enclosure), (.plain, "url", .url), (.plain, "language", .language),
            (.plain, "name", .name), (.plain, "category", .category), (.plain, "summary", .summary),
            (.plain, "content", .content), (.plain, "subtitle", .subtitle), (.plain, "tagline", .subtitle),
            (.plain, "published", .published), (.plain, "issued", .published), (.plain, "updated", .updated),
            (.plain, "modified", .updated), (.plain, "id", .id), (.plain, "logo", .logo), (.plain, "icon", .icon),
            (.plain, "managingeditor", .managingEditor),
            (.itunes, "image", .itunesImage), (.itunes, "author", .itunesAuthor), (.itunes, "summary", .itunesSummary),
            (.itunes, "subtitle", .itunesSubtitle), (.itunes, "explicit", .itunesExplicit),
            (.itunes, "duration", .itunesDuration), (.itunes, "episodetype", .itunesEpisodeType),
            (.itunes, "season", .itunesSeason), (.itunes, "episode", .itunesEpisode),
            (.itunes, "category", .itunesCategory), (.itunes, "new-feed-url", .itunesNewFeedURL),
            (.itunes, "type", .itunesType), (.itunes, "owner", .itunesOwner), (.itunes, "name", .itunesName), (.itunes, "title", .itunesTitle),
            (.podcast, "chapters", .podcastChapters), (.podcast, "transcript", .podcastTranscript),
            (.podcast, "person", .podcastPerson), (.podcast, "funding", .podcastFunding),
            (.podcast, "season", .podcastSeason), (.podcast, "episode", .podcastEpisode),
            (.podcast, "locked", .podcastLocked),
            (.media, "group", .mediaGroup), (.media, "content", .mediaContent), (.media, "thumbnail", .mediaThumbnail),
            (.content, "encoded", .contentEncoded),
            (.dublinCore, "date", .dublinCoreDate), (.dublinCore, "creator", .dublinCoreCreator),
            (.dublinCore, "language", .dublinCoreLanguage),
            (.googlePlay, "image", .googlePlayImage),
            (.plain, "ttl", .ttl), (.syndication, "updateperiod", .syUpdatePeriod),
            (.syndication, "updatefrequency", .syUpdateFrequency),
            (.podloveChapters, "chapters", .pscChapters), (.podloveChapters, "chapter", .pscChapter),
        ]
        var table: [Key: FeedElement] = [:]
        for (namespace, name, element) in names { table[Key(namespace: namespace, name: name.utf8)] = element }
        return table
    }()
}
