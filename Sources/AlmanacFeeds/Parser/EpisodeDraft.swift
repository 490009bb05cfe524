import AlmanacModels

/// What the reader has gathered for one item or entry, every candidate kept, until its end
/// tag decides which ones win.
struct EpisodeDraft {
    var title: String?
    var itunesTitle: String?
    var link: String?
    var guid: String?
    var guidIsPermaLink = true
    var atomID: String?
    var rdfAbout: String?
    /// Description candidates (HTML). The first present of `description`, `atomContent`,
    /// `atomSummary`, `itunesSummary` and `itunesSubtitle` is used, unless `contentEncoded` is longer.
    var description: [UInt8]?
    var contentEncoded: [UInt8]?
    var atomContent: [UInt8]?
    var atomSummary: [UInt8]?
    var itunesSummary: [UInt8]?
    var itunesSubtitle: [UInt8]?
    var pubDate: Int64?
    var published: Int64?
    var dublinCoreDate: Int64?
    var updated: Int64?
    var duration: Double?
    var enclosures: [FeedEnclosure] = []
    var mediaContents: [FeedEnclosure] = []
    var itunesImage: String?
    var mediaThumbnail: String?
    var explicit: Bool?
    var episodeType: String?
    var itunesSeason: Int?
    var podcastSeason: Int?
    var itunesEpisode: Int?
    var podcastEpisode: Int?
    var chaptersURL: String?
    var transcripts: [FeedTranscript] = []
    var persons: [FeedPerson] = []
    /// Podlove Simple Chapters, in document order.
    var chapters: [FeedChapter] = []

    /// The episode, or nil when the item holds nothing worth keeping (no title, identifier,
    /// link, enclosure or description). Without a link, a GUID that is a permalink
    /// (`isPermaLink` absent or true) is the link when it is a web address: absolute
    /// (http/https), or a path ("/episodes/12", resolved against the feed's address). GUIDs
    /// such as "12345", "urn:uuid:…" or "tag:…" are no links, though feedparser takes them.
    func build(resolver: URLResolver) -> ParsedEpisode? {
        let title = self.title ?? itunesTitle ?? ""
        let published = pubDate ?? self.published ?? dublinCoreDate ?? updated
        let enclosures = self.enclosures.isEmpty ? mediaContents : self.enclosures
        var link = self.link
        if link == nil, guidIsPermaLink, let guid {
            if guid.hasPrefix("http://") || guid.hasPrefix("https://") {
                link = guid
            } else if guid.hasPrefix("/"), let resolved = resolver.resolve(guid), resolved.hasPrefix("http://") || resolved.hasPrefix("https://") {
                link = resolved
            }
        }
        let descriptionBytes = Self.preferred(description ?? atomContent ?? atomSummary ?? itunesSummary ?? itunesSubtitle, orLonger: contentEncoded)
        let ownIdentifier = guid ?? atomID ?? rdfAbout
        if ownIdentifier == nil, title.isEmpty, link == nil, enclosures.isEmpty, descriptionBytes.isEmpty { return nil }
        let identifier = ownIdentifier ?? enclosures.first?.url ?? link ?? Self.stableHash(title: title, published: published)
        let (descriptionText, links) = descriptionBytes.withUnsafeBufferPointer { HTMLText.linkedText($0) }
        return ParsedEpisode(
            guid: identifier,
            title: title,
            link: link,
            description: String(decoding: descriptionBytes, as: UTF8.self),
            descriptionText: descriptionText,
            published: published,
            duration: duration,
            enclosures: enclosures,
            image: itunesImage ?? mediaThumbnail,
            explicit: explicit,
            episodeType: episodeType,
            season: itunesSeason ?? podcastSeason,
            episode: itunesEpisode ?? podcastEpisode,
            chaptersURL: chaptersURL,
            transcripts: transcripts,
            persons: persons,
            descriptionLinks: links.compactMap { link in
                guard let url = resolver.resolve(link.href), !url.lowercased().hasPrefix("javascript:") else { return nil }
                return FeedLink(url: url, end: link.end)
            },
            chapters: chapters.sorted { $0.start < $1.start }
        )
    }

    /// `description`, unless `fuller` (`content:encoded`) is longer.
    static func preferred(_ description: [UInt8]?, orLonger fuller: [UInt8]?) -> [UInt8] {
        guard let fuller, fuller.count > description?.count ?? 0 else { return description ?? [] }
        return fuller
    }

    /// The stand-in identifier of an item with no guid, enclosure or link:
    /// `fnv1a64:` and 16 hex digits of the 64-bit FNV-1a hash of the title, a newline, and
    /// the publication time in decimal Unix seconds (empty when unknown).
    static func stableHash(title: String, published: Int64?) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        for byte in title.utf8 { mix(byte) }
        mix(ASCII.newline)
        if let published { for byte in String(published).utf8 { mix(byte) } }
        let hex = String(hash, radix: 16)
        return "fnv1a64:" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
