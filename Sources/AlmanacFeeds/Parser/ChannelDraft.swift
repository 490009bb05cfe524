import AlmanacModels

/// What the reader has gathered about the feed itself, every candidate kept until the end.
struct ChannelDraft {
    var title: String?
    var link: String?
    var alternateLink: String?
    var description: [UInt8]?
    var contentEncoded: [UInt8]?
    var itunesSummary: [UInt8]?
    var subtitle: [UInt8]?
    var itunesSubtitle: [UInt8]?
    var itunesAuthor: String?
    var atomAuthorName: String?
    var dublinCoreCreator: String?
    var rssAuthor: String?
    var ownerName: String?
    var managingEditor: String?
    var language: String?
    var xmlLanguage: String?
    var itunesImage: String?
    var rssImageURL: String?
    var mediaThumbnail: String?
    var logo: String?
    var icon: String?
    var googlePlayImage: String?
    var explicit: Bool?
    var newFeedURL: String?
    var nextPageURL: String?
    var locked: Bool?
    var serial: Bool?
    var ttlMinutes: Int?
    var updatePeriod: String?
    var updateFrequency: Int?
    var categories: [String] = []
    var funding: [FeedFunding] = []
    var persons: [FeedPerson] = []

    mutating func addCategory(_ name: String) {
        guard !name.isEmpty, categories.count < 256, !categories.contains(name) else { return }
        categories.append(name)
    }

    func build(episodes: [ParsedEpisode]) -> ParsedFeed {
        let descriptionBytes = EpisodeDraft.preferred(description ?? subtitle ?? itunesSummary ?? itunesSubtitle, orLonger: contentEncoded)
        return ParsedFeed(
            title: title ?? "",
            link: link ?? alternateLink,
            description: String(decoding: descriptionBytes, as: UTF8.self),
            descriptionText: descriptionBytes.withUnsafeBufferPointer { HTMLText.plainText($0, singleLine: false) },
            author: itunesAuthor ?? atomAuthorName ?? dublinCoreCreator ?? rssAuthor ?? ownerName ?? managingEditor.map(Self.nameInEmailAddress),
            language: language ?? xmlLanguage,
            image: itunesImage ?? rssImageURL ?? mediaThumbnail ?? logo ?? icon ?? googlePlayImage,
            explicit: explicit,
            newFeedURL: newFeedURL,
            nextPageURL: nextPageURL,
            locked: locked,
            categories: categories,
            funding: funding,
            persons: persons,
            episodes: episodes,
            refreshInterval: refreshInterval,
            serial: serial
        )
    }

    /// Seconds between reads the feed asks for: RSS `<ttl>` (minutes), else the syndication
    /// module's `sy:updatePeriod` (hourly, daily, weekly, monthly, yearly; daily when absent)
    /// divided by `sy:updateFrequency` (1 when absent); `nil` when it says neither, or
    /// nonsense (zero or less).
    var refreshInterval: Double? {
        if let ttlMinutes, ttlMinutes > 0 { return Double(ttlMinutes) * 60 }
        guard updatePeriod != nil || updateFrequency != nil else { return nil }
        let periods: [String: Double] = ["hourly": 3_600, "daily": 86_400, "weekly": 604_800, "monthly": 2_592_000, "yearly": 31_536_000]
        guard let period = periods[updatePeriod ?? "daily"] else { return nil }
        let frequency = updateFrequency ?? 1
        guard frequency > 0 else { return nil }
        return period / Double(frequency)
    }

    /// `jo@example.com (Jo Bloggs)` → `Jo Bloggs`; anything else as it is.
    static func nameInEmailAddress(_ text: String) -> String {
        guard text.hasSuffix(")"), let open = text.firstIndex(of: "(") else { return text }
        let name = text[text.index(after: open)..<text.index(before: text.endIndex)]
        return name.isEmpty ? text : String(name)
    }
}
