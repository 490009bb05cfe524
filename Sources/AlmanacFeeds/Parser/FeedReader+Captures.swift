import AlmanacModels

/// Captures: an element's text gathered and written to the field it fills (each field
/// keeps the first value it is given), and the values read from attributes.
extension FeedReader {
    // MARK: - Captures

    mutating func begin(_ target: Target, markup: Bool = false) {
        captured.removeAll(keepingCapacity: true)
        capture = Capture(target: target, depth: stack.count, isMarkup: markup)
    }

    mutating func appendRaw(_ range: Range<Int>) {
        let room = Self.maximumFieldBytes - captured.count
        guard room > 0 else { return }
        captured.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<min(range.upperBound, range.lowerBound + room)]))
    }

    mutating func finishCapture(_ target: Target) {
        capture = nil
        // Work on the captured bytes outside `self`, then give the buffer back for reuse.
        var content: [UInt8] = []
        swap(&content, &captured)
        content.withUnsafeBufferPointer { buffer in
            let value = FeedValue.trimmed(buffer)
            if var draft = episode.take() {
                finish(target, value: value, episode: &draft)
                episode = draft
            } else {
                var none = EpisodeDraft()
                finish(target, value: value, episode: &none)
            }
        }
        content.removeAll(keepingCapacity: true)
        swap(&content, &captured)
    }

    private mutating func finish(_ target: Target, value: UnsafeBufferPointer<UInt8>, episode: inout EpisodeDraft) {
        switch target {
        case .feedTitle: setText(&channel.title, singleLineText(value))
        case .feedLink: setText(&channel.link, url(value))
        case .feedDescription: setBytes(&channel.description, value)
        case .feedContentEncoded: setBytes(&channel.contentEncoded, value)
        case .feedItunesSummary: setBytes(&channel.itunesSummary, value)
        case .feedSubtitle: setBytes(&channel.subtitle, value)
        case .feedItunesSubtitle: setBytes(&channel.itunesSubtitle, value)
        case .feedItunesAuthor: setText(&channel.itunesAuthor, singleLineText(value))
        case .feedAtomAuthorName: setText(&channel.atomAuthorName, singleLineText(value))
        case .feedDublinCoreCreator: setText(&channel.dublinCoreCreator, singleLineText(value))
        case .feedRSSAuthor: setText(&channel.rssAuthor, singleLineText(value))
        case .feedOwnerName: setText(&channel.ownerName, singleLineText(value))
        case .feedManagingEditor: setText(&channel.managingEditor, singleLineText(value))
        case .feedLanguage: setText(&channel.language, singleLineText(value))
        case .feedItunesImage: setText(&channel.itunesImage, url(value))
        case .feedImageURL: setText(&channel.rssImageURL, url(value))
        case .feedLogo: setText(&channel.logo, url(value))
        case .feedIcon: setText(&channel.icon, url(value))
        case .feedExplicit: setValue(&channel.explicit, FeedValue.explicit(value))
        case .feedNewFeedURL: setText(&channel.newFeedURL, url(value))
        case .feedLocked: setValue(&channel.locked, FeedValue.yesNo(value))
        case .feedSerial: setValue(&channel.serial, FeedValue.showType(value))
        case .feedTTL: setValue(&channel.ttlMinutes, FeedValue.integer(value).flatMap { Int(exactly: $0) })
        case .feedUpdatePeriod: setText(&channel.updatePeriod, singleLineText(value)?.lowercased())
        case .feedUpdateFrequency: setValue(&channel.updateFrequency, FeedValue.integer(value).flatMap { Int(exactly: $0) })
        case .feedCategory: channel.addCategory(HTMLText.plainText(value, singleLine: true))
        case .feedFunding(let fundingURL):
            if let fundingURL, channel.funding.count < 64 {
                channel.funding.append(FeedFunding(url: fundingURL, text: HTMLText.plainText(value, singleLine: true)))
            }
        case .feedPerson(var person):
            person.name = HTMLText.plainText(value, singleLine: true)
            if !person.name.isEmpty, channel.persons.count < 256 { channel.persons.append(person) }
        case .episodeTitle: setText(&episode.title, singleLineText(value))
        case .episodeItunesTitle: setText(&episode.itunesTitle, singleLineText(value))
        case .episodeLink: setText(&episode.link, url(value))
        case .episodeGUID: setText(&episode.guid, text(value))
        case .episodeAtomID: setText(&episode.atomID, text(value))
        case .episodeDescription: setBytes(&episode.description, value)
        case .episodeContentEncoded: setBytes(&episode.contentEncoded, value)
        case .episodeAtomContent: setBytes(&episode.atomContent, value)
        case .episodeAtomSummary: setBytes(&episode.atomSummary, value)
        case .episodeItunesSummary: setBytes(&episode.itunesSummary, value)
        case .episodeItunesSubtitle: setBytes(&episode.itunesSubtitle, value)
        case .episodePubDate: setValue(&episode.pubDate, FeedDate.unixTime(value))
        case .episodePublished: setValue(&episode.published, FeedDate.unixTime(value))
        case .episodeDublinCoreDate: setValue(&episode.dublinCoreDate, FeedDate.unixTime(value))
        case .episodeUpdated: setValue(&episode.updated, FeedDate.unixTime(value))
        case .episodeDuration: setValue(&episode.duration, FeedValue.duration(value))
        case .episodeExplicit: setValue(&episode.explicit, FeedValue.explicit(value))
        case .episodeType: setValue(&episode.episodeType, FeedValue.episodeType(value))
        case .episodeItunesSeason: setValue(&episode.itunesSeason, FeedValue.integer(value).flatMap { Int(exactly: $0) })
        case .episodePodcastSeason: setValue(&episode.podcastSeason, FeedValue.integer(value).flatMap { Int(exactly: $0) })
        case .episodeItunesEpisode: setValue(&episode.itunesEpisode, FeedValue.integer(value).flatMap { Int(exactly: $0) })
        case .episodePodcastEpisode: setValue(&episode.podcastEpisode, FeedValue.integer(value).flatMap { Int(exactly: $0) })
        case .episodeItunesImage: setText(&episode.itunesImage, url(value))
        case .episodePerson(var person):
            person.name = HTMLText.plainText(value, singleLine: true)
            if !person.name.isEmpty, episode.persons.count < 256 { episode.persons.append(person) }
        }
    }

    // Each field keeps the first value it is given; empty values do not count.

    private func setText(_ field: inout String?, _ value: String?) {
        guard field == nil, let value, !value.isEmpty else { return }
        field = value
    }

    private func setBytes(_ field: inout [UInt8]?, _ value: UnsafeBufferPointer<UInt8>) {
        guard field == nil, !value.isEmpty else { return }
        field = Array(value)
    }

    private func setValue<Value>(_ field: inout Value?, _ value: Value?) {
        guard field == nil, let value else { return }
        field = value
    }

    // MARK: - Values

    func text(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
    }

    private func singleLineText(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        value.isEmpty ? nil : HTMLText.plainText(value, singleLine: true)
    }

    func url(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        value.isEmpty ? nil : resolver.resolve(String(decoding: value, as: UTF8.self))
    }


    func isPrefixed(_ name: Range<Int>) -> Bool {
        UnsafeBufferPointer(rebasing: bytes[name]).contains(ASCII.colon)
    }

    /// The value of the current start tag's attribute `name`, with references decoded.
    mutating func attribute(_ name: StaticString) -> String? {
        for attribute in scanner.attributes where attribute.name.count == name.utf8CodeUnitCount {
            var matches = true
            for offset in 0..<attribute.name.count
            where ASCII.lowercased(bytes[attribute.name.lowerBound + offset]) != ASCII.lowercased(name.utf8Start[offset]) {
                matches = false
                break
            }
            guard matches else { continue }
            scratch.removeAll(keepingCapacity: true)
            XMLEntities.appendDecoded(bytes, attribute.value, to: &scratch, limit: Self.maximumFieldBytes)
            return String(decoding: scratch, as: UTF8.self)
        }
        return nil
    }

    mutating func integerAttribute(_ name: StaticString) -> Int64? {
        guard let text = attribute(name) else { return nil }
        var copy = text
        return copy.withUTF8 { FeedValue.integer($0) }
    }

    /// A Podlove chapter's `start`: Normal Play Time, `HH:MM:SS.mmm`, `MM:SS` or seconds.
    static func playTime(_ text: String) -> Double? {
        var copy = text
        return copy.withUTF8 { FeedValue.duration($0) }
    }

    static func nonEmpty(_ text: String) -> String? {
        let trimmed = HTMLText.plainText(text, singleLine: true)
        return trimmed.isEmpty ? nil : trimmed
    }

    func notAFeedError() -> FeedParseError {
        if !sawElement {
            let isBlank = bytes.allSatisfy { ASCII.isWhitespace($0) }
            return isBlank ? .empty : .notXML
        }
        if sawHTML { return .htmlPage }
        return .noFeedElement(root: rootName ?? "")
    }
}
