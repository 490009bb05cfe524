import AlmanacModels

/// Reads a feed's tokens into a `ParsedFeed`, keeping whatever it can of a broken document.
///
/// Structure is a stack of open elements: an end tag closes back to the nearest open
/// element of its name (closing whatever was left open inside it); an end tag with no open
/// element of its name is ignored; elements deeper than `maximumDepth` are ignored. Values
/// are read by *capturing* the text of the element that holds them; inside a capture, child
/// elements are kept as markup (a description's HTML), unless one of them is a feed element,
/// which shows that the capturing element was never closed.
struct FeedReader {
    static let maximumDepth = 256
    static let maximumEpisodes = 100_000
    /// Text beyond this many bytes in one field is dropped.
    static let maximumFieldBytes = 1 << 20
    /// Podlove Simple Chapters beyond this many in one item are ignored.
    static let maximumChapters = 1_000

    private struct OpenElement {
        var name: Range<Int>
        var element: FeedElement
    }

    /// The field a capture fills.
    private enum Target {
        case feedTitle, feedLink, feedDescription, feedContentEncoded, feedItunesSummary, feedSubtitle, feedItunesSubtitle
        case feedItunesAuthor, feedAtomAuthorName, feedDublinCoreCreator, feedRSSAuthor, feedOwnerName, feedManagingEditor
        case feedLanguage, feedItunesImage, feedImageURL, feedLogo, feedIcon, feedExplicit, feedNewFeedURL, feedLocked, feedSerial
        case feedTTL, feedUpdatePeriod, feedUpdateFrequency
        case feedCategory, feedFunding(url: String?), feedPerson(FeedPerson)
        case episodeTitle, episodeItunesTitle, episodeLink, episodeGUID, episodeAtomID
        case episodeDescription, episodeContentEncoded, episodeAtomContent, episodeAtomSummary, episodeItunesSummary, episodeItunesSubtitle
        case episodePubDate, episodePublished, episodeDublinCoreDate, episodeUpdated, episodeDuration, episodeExplicit
        case episodeType, episodeItunesSeason, episodePodcastSeason, episodeItunesEpisode, episodePodcastEpisode
        case episodeItunesImage, episodePerson(FeedPerson)
    }

    private struct Capture {
        var target: Target
        /// Index in the stack of the element being captured.
        var depth: Int
        /// Whether the content may be HTML, so child elements are part of it.
        var isMarkup: Bool
    }

    private enum Format { case unknown, rss, atom }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var scanner: XMLScanner
    private let resolver: URLResolver
    private var namespaces = NamespaceTable()
    private var stack: [OpenElement] = []
    private var capture: Capture?
    private var captured: [UInt8] = []
    private var scratch: [UInt8] = []
    private var format = Format.unknown
    private var sawElement = false
    private var sawHTML = false
    private var rootName: String?
    /// The name of the start tag being handled.
    private var currentName = 0..<0
    private var channel = ChannelDraft()
    private var episode: EpisodeDraft?
    /// Index in the stack of the open item or entry.
    private var episodeDepth: Int?
    private var episodes: [ParsedEpisode] = []

    init(bytes: UnsafeBufferPointer<UInt8>, start: Int, feedURL: String?) {
        self.bytes = bytes
        scanner = XMLScanner(bytes: bytes, startingAt: start)
        resolver = URLResolver(base: feedURL)
        stack.reserveCapacity(32)
        captured.reserveCapacity(4096)
    }

    /// Whether `parse` would find a feed: reads only until the first feed element (at once,
    /// for a feed; to the end for anything else).
    mutating func findsFeedElement() -> Bool {
        while format == .unknown, let token = scanner.next() {
            if case .startTag(let name, let selfClosing, let source) = token { startTag(name: name, selfClosing: selfClosing, source: source) }
            if case .endTag(let name, let source) = token { endTag(name: name, source: source) }
        }
        return format != .unknown
    }

    mutating func read() throws(FeedParseError) -> ParsedFeed {
        while let token = scanner.next() {
            switch token {
            case .startTag(let name, let selfClosing, let source):
                startTag(name: name, selfClosing: selfClosing, source: source)
            case .endTag(let name, let source):
                endTag(name: name, source: source)
            case .text(let range):
                guard let capture else { continue }
                if stack.count - 1 == capture.depth {
                    XMLEntities.appendDecoded(bytes, range, to: &captured, limit: Self.maximumFieldBytes)
                } else {
                    appendRaw(range)
                }
            case .cdata(let range):
                if capture != nil { appendRaw(range) }
            }
        }
        // The end of the input: an item still open was cut off, so it is dropped.
        episode = nil
        episodeDepth = nil
        capture = nil
        guard format != .unknown else { throw notAFeedError() }
        return channel.build(episodes: episodes)
    }

    // MARK: - Structure

    private mutating func startTag(name: Range<Int>, selfClosing: Bool, source: Range<Int>) {
        sawElement = true
        declareNamespaces() // before classifying: a prefix may be declared on its own element
        let element = classify(name)
        if let capture {
            let endsCapture = capture.isMarkup ? element.endsMarkup : element != .other
            if endsCapture {
                close(downTo: capture.depth)
            } else {
                appendRaw(source)
                if !selfClosing, !isVoidHTML(name), stack.count < Self.maximumDepth {
                    stack.append(OpenElement(name: name, element: .other))
                }
                return
            }
        }
        guard stack.count < Self.maximumDepth else { return }
        currentName = name
        if element == .item || element == .entry, let episodeDepth {
            close(downTo: episodeDepth) // items do not nest: the previous one was left open
        }
        let isEmpty = handleStart(element)
        stack.append(OpenElement(name: name, element: element))
        if selfClosing || isEmpty { close(downTo: stack.count - 1) }
    }

    private mutating func endTag(name: Range<Int>, source: Range<Int>) {
        var index = stack.count - 1
        while index >= 0, !sameName(stack[index].name, name) { index -= 1 }
        if let capture {
            if index > capture.depth || (index < 0 && capture.isMarkup) { appendRaw(source) }
        }
        if index >= 0 { close(downTo: index) }
    }

    /// Pops open elements until `count` remain, ending each.
    private mutating func close(downTo count: Int) {
        while stack.count > count {
            stack.removeLast()
            let depth = stack.count
            if let capture, capture.depth == depth { finishCapture(capture.target) }
            if episodeDepth == depth { commitEpisode() }
        }
    }

    private func sameName(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        var i = a.lowerBound, j = b.lowerBound
        while i < a.upperBound {
            if bytes[i] != bytes[j], ASCII.lowercased(bytes[i]) != ASCII.lowercased(bytes[j]) { return false }
            i += 1
            j += 1
        }
        return true
    }

    private func isVoidHTML(_ name: Range<Int>) -> Bool {
        guard name.count <= 6 else { return false }
        let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[name]).lazy.map(ASCII.lowercased), as: UTF8.self)
        switch word {
        case "br", "hr", "img", "input", "meta", "wbr", "source", "area", "col", "embed", "param", "track": return true
        default: return false
        }
    }

    private mutating func classify(_ name: Range<Int>) -> FeedElement {
        let qualified = UnsafeBufferPointer(rebasing: bytes[name])
        guard let colon = qualified.firstIndex(of: ASCII.colon) else {
            return FeedElement.classify(namespace: .plain, localName: qualified)
        }
        let prefix = UnsafeBufferPointer(rebasing: qualified[..<colon])
        let local = UnsafeBufferPointer(rebasing: qualified[(colon + 1)...])
        return FeedElement.classify(namespace: namespaces.namespace(ofPrefix: prefix), localName: local)
    }

    private mutating func declareNamespaces() {
        for attribute in scanner.attributes where attribute.name.count > 6 {
            let name = UnsafeBufferPointer(rebasing: bytes[attribute.name])
            guard name[0] == 0x78, name.starts(with: "xmlns:".utf8) else { continue }
            namespaces.declare(prefix: UnsafeBufferPointer(rebasing: name[6...]), uri: UnsafeBufferPointer(rebasing: bytes[attribute.value]))
        }
    }

    // MARK: - Elements

    /// Acts on a start tag; returns whether the element holds nothing but attributes, so
    /// that an `<enclosure …>` left open does not swallow what follows it.
    private mutating func handleStart(_ element: FeedElement) -> Bool {
        let parent = stack.last?.element ?? .other
        if format == .unknown {
            switch element {
            case .rss, .rdf, .channel: format = .rss
            case .feed: format = .atom
            case .html: sawHTML = true
            default: break
            }
            if rootName == nil { rootName = String(decoding: UnsafeBufferPointer(rebasing: bytes[currentName]), as: UTF8.self) }
            guard format != .unknown else { return false }
        }
        let inChannel = parent == .channel || parent == .feed
        let inItem = episode != nil && (parent == .item || parent == .entry)

        switch element {
        case .item, .entry, .feed, .title, .itunesTitle, .link, .description, .contentEncoded, .summary, .content,
             .subtitle, .itunesSummary, .itunesSubtitle, .guid, .id, .pubDate, .published, .dublinCoreDate, .updated:
            if startEpisodeOrText(element, inItem: inItem, inChannel: inChannel) { return true }
        case .enclosure, .mediaContent, .mediaThumbnail, .itunesImage, .url, .logo, .icon, .googlePlayImage:
            if startImageOrMedia(element, parent: parent, inItem: inItem, inChannel: inChannel) { return true }
        case .language, .dublinCoreLanguage, .itunesAuthor, .author, .name, .itunesName, .dublinCoreCreator,
             .managingEditor, .itunesExplicit, .itunesDuration, .itunesType, .itunesEpisodeType, .itunesSeason,
             .podcastSeason, .itunesEpisode, .podcastEpisode, .itunesCategory, .category, .itunesNewFeedURL,
             .podcastLocked, .ttl, .syUpdatePeriod, .syUpdateFrequency:
            startChannelDetail(element, parent: parent, inItem: inItem, inChannel: inChannel)
        case .podcastFunding, .podcastPerson, .podcastChapters, .podcastTranscript, .pscChapter:
            startPodcastNamespace(element, parent: parent, inItem: inItem, inChannel: inChannel)
        case .other, .html, .rss, .rdf, .channel, .image, .itunesOwner, .mediaGroup, .pscChapters:
            break
        }
        switch element {
        case .enclosure, .mediaThumbnail, .podcastChapters, .podcastTranscript, .googlePlayImage, .pscChapter: return true
        default: return false
        }
    }

    /// Acts on the start of an item or entry, or of a text field of the channel or an
    /// episode; returns true when the element holds nothing but attributes (an Atom link).
    private mutating func startEpisodeOrText(_ element: FeedElement, inItem: Bool, inChannel: Bool) -> Bool {
        switch element {
        case .item, .entry:
            guard episodes.count < Self.maximumEpisodes else { return false }
            episode = EpisodeDraft()
            episodeDepth = stack.count
            if let about = attribute("rdf:about") { episode?.rdfAbout = about }
        case .feed:
            if channel.xmlLanguage == nil { channel.xmlLanguage = attribute("xml:lang") }
        case .title:
            if inItem { begin(.episodeTitle) } else if inChannel { begin(.feedTitle) }
        case .itunesTitle:
            if inItem { begin(.episodeItunesTitle) }
        case .link:
            if let href = attribute("href") {
                atomLink(href: href, inItem: inItem, inChannel: inChannel)
                return true
            } else if inItem {
                begin(.episodeLink)
            } else if inChannel {
                begin(.feedLink)
            }
        case .description:
            if inItem { begin(.episodeDescription, markup: true) } else if inChannel { begin(.feedDescription, markup: true) }
        case .contentEncoded:
            if inItem { begin(.episodeContentEncoded, markup: true) } else if inChannel { begin(.feedContentEncoded, markup: true) }
        case .summary:
            if inItem { begin(.episodeAtomSummary, markup: true) } else if inChannel { begin(.feedSubtitle, markup: true) }
        case .content:
            if inItem, attribute("src") == nil { begin(.episodeAtomContent, markup: true) }
        case .subtitle:
            if inChannel { begin(.feedSubtitle, markup: true) }
        case .itunesSummary:
            if inItem { begin(.episodeItunesSummary, markup: true) } else if inChannel { begin(.feedItunesSummary, markup: true) }
        case .itunesSubtitle:
            if inItem { begin(.episodeItunesSubtitle, markup: true) } else if inChannel { begin(.feedItunesSubtitle, markup: true) }
        case .guid:
            if inItem {
                let isPermaLink = attribute("isPermaLink").map { $0.lowercased() != "false" } ?? true
                episode?.guidIsPermaLink = isPermaLink
                begin(.episodeGUID)
            }
        case .id:
            if inItem { begin(.episodeAtomID) }
        case .pubDate:
            if inItem { begin(.episodePubDate) }
        case .published:
            if inItem { begin(.episodePublished) }
        case .dublinCoreDate:
            if inItem { begin(.episodeDublinCoreDate) }
        case .updated:
            if inItem { begin(.episodeUpdated) }
        default:
            break
        }
        return false
    }

    /// Acts on the start of an enclosure, a media element or an image; returns true when
    /// the element holds nothing but attributes (an `itunes:image` with an `href`).
    private mutating func startImageOrMedia(_ element: FeedElement, parent: FeedElement, inItem: Bool, inChannel: Bool) -> Bool {
        switch element {
        case .enclosure:
            if inItem, let url = attribute("url").flatMap(resolver.resolve) {
                addEnclosure(FeedEnclosure(url: url, length: integerAttribute("length"), type: attribute("type").flatMap(Self.nonEmpty)))
            }
        case .mediaContent:
            if episode != nil, let url = attribute("url").flatMap(resolver.resolve) {
                let type = attribute("type").flatMap(Self.nonEmpty)
                let isImage = attribute("medium")?.lowercased() == "image" || type?.lowercased().hasPrefix("image/") == true
                if !isImage, episode?.mediaContents.contains(where: { $0.url == url }) == false, (episode?.mediaContents.count ?? 0) < 64 {
                    let enclosure = FeedEnclosure(url: url, length: integerAttribute("fileSize"), type: type)
                    episode?.mediaContents.append(enclosure)
                }
            }
        case .mediaThumbnail:
            if let url = attribute("url").flatMap(resolver.resolve) {
                if episode != nil {
                    if episode?.mediaThumbnail == nil { episode?.mediaThumbnail = url }
                } else if channel.mediaThumbnail == nil {
                    channel.mediaThumbnail = url
                }
            }
        case .itunesImage:
            if let href = attribute("href") ?? attribute("url") {
                let url = resolver.resolve(href)
                if inItem, episode?.itunesImage == nil { episode?.itunesImage = url }
                if inChannel, channel.itunesImage == nil { channel.itunesImage = url }
                return true
            } else if inItem {
                begin(.episodeItunesImage)
            } else if inChannel {
                begin(.feedItunesImage)
            }
        case .url:
            if parent == .image, episode == nil { begin(.feedImageURL) }
        case .logo:
            if inChannel { begin(.feedLogo) }
        case .icon:
            if inChannel { begin(.feedIcon) }
        case .googlePlayImage:
            if inChannel, channel.googlePlayImage == nil { channel.googlePlayImage = attribute("href").flatMap(resolver.resolve) }
        default:
            break
        }
        return false
    }

    /// Acts on the start of a detail of the channel or an episode: language, authors,
    /// iTunes fields, categories, refresh hints.
    private mutating func startChannelDetail(_ element: FeedElement, parent: FeedElement, inItem: Bool, inChannel: Bool) {
        switch element {
        case .language, .dublinCoreLanguage:
            if inChannel { begin(.feedLanguage) }
        case .itunesAuthor:
            if inChannel { begin(.feedItunesAuthor) }
        case .author:
            if inChannel, format == .rss, !isPrefixed(currentName) { begin(.feedRSSAuthor) }
        case .name:
            let grandparent = stack.count >= 2 ? stack[stack.count - 2].element : .other
            if parent == .author, grandparent == .channel || grandparent == .feed {
                begin(.feedAtomAuthorName)
            } else if parent == .itunesOwner, grandparent == .channel {
                begin(.feedOwnerName)
            }
        case .itunesName:
            if parent == .itunesOwner { begin(.feedOwnerName) }
        case .dublinCoreCreator:
            if inChannel { begin(.feedDublinCoreCreator) }
        case .managingEditor:
            if inChannel { begin(.feedManagingEditor) }
        case .itunesExplicit:
            if inItem { begin(.episodeExplicit) } else if inChannel { begin(.feedExplicit) }
        case .itunesDuration:
            if inItem { begin(.episodeDuration) }
        case .itunesType:
            if inChannel && !inItem { begin(.feedSerial) }
        case .itunesEpisodeType:
            if inItem { begin(.episodeType) }
        case .itunesSeason:
            if inItem { begin(.episodeItunesSeason) }
        case .podcastSeason:
            if inItem { begin(.episodePodcastSeason) }
        case .itunesEpisode:
            if inItem { begin(.episodeItunesEpisode) }
        case .podcastEpisode:
            if inItem { begin(.episodePodcastEpisode) }
        case .itunesCategory:
            if episode == nil, let text = attribute("text") { channel.addCategory(HTMLText.plainText(text, singleLine: true)) }
        case .category:
            if inChannel {
                if let term = attribute("label") ?? attribute("term") {
                    channel.addCategory(HTMLText.plainText(term, singleLine: true))
                } else {
                    begin(.feedCategory)
                }
            }
        case .itunesNewFeedURL:
            if inChannel { begin(.feedNewFeedURL) }
        case .podcastLocked:
            if inChannel { begin(.feedLocked) }
        case .ttl:
            if inChannel { begin(.feedTTL) }
        case .syUpdatePeriod:
            if inChannel { begin(.feedUpdatePeriod) }
        case .syUpdateFrequency:
            if inChannel { begin(.feedUpdateFrequency) }
        default:
            break
        }
    }

    /// Acts on the start of a Podcasting 2.0 or Podlove element.
    private mutating func startPodcastNamespace(_ element: FeedElement, parent: FeedElement, inItem: Bool, inChannel: Bool) {
        switch element {
        case .podcastFunding:
            if inChannel { begin(.feedFunding(url: attribute("url").flatMap(resolver.resolve))) }
        case .podcastPerson:
            let person = FeedPerson(
                name: "",
                role: attribute("role").flatMap(Self.nonEmpty),
                href: attribute("href").flatMap(resolver.resolve),
                image: attribute("img").flatMap(resolver.resolve)
            )
            if inItem { begin(.episodePerson(person)) } else if inChannel { begin(.feedPerson(person)) }
        case .podcastChapters:
            if inItem, episode?.chaptersURL == nil {
                let url = attribute("url").flatMap(resolver.resolve)
                episode?.chaptersURL = url
            }
        case .podcastTranscript:
            if inItem, let url = attribute("url").flatMap(resolver.resolve), (episode?.transcripts.count ?? 0) < 64 {
                let transcript = FeedTranscript(
                    url: url,
                    type: attribute("type").flatMap(Self.nonEmpty),
                    language: (attribute("language") ?? attribute("lang")).flatMap(Self.nonEmpty)
                )
                episode?.transcripts.append(transcript)
            }
        case .pscChapter:
            if episode != nil, parent == .pscChapters, (episode?.chapters.count ?? 0) < Self.maximumChapters,
               let start = attribute("start").flatMap(Self.playTime) {
                let chapter = FeedChapter(
                    start: start,
                    title: attribute("title").map { HTMLText.plainText($0, singleLine: true) } ?? "",
                    url: attribute("href").flatMap(resolver.resolve),
                    image: attribute("image").flatMap(resolver.resolve)
                )
                episode?.chapters.append(chapter)
            }
        default:
            break
        }
    }

    private mutating func atomLink(href: String, inItem: Bool, inChannel: Bool) {
        let relation = attribute("rel")?.lowercased() ?? "alternate"
        guard inItem || inChannel, let url = resolver.resolve(href) else { return }
        switch relation {
        case "alternate":
            if inItem, episode?.link == nil { episode?.link = url }
            if inChannel, channel.alternateLink == nil { channel.alternateLink = url }
        case "enclosure":
            if inItem { addEnclosure(FeedEnclosure(url: url, length: integerAttribute("length"), type: attribute("type").flatMap(Self.nonEmpty))) }
        case "next", "prev-archive":
            // RFC 5005: the next page of a paged feed, or the archive before an archived
            // feed's subscription document; either holds older episodes.
            if inChannel, channel.nextPageURL == nil { channel.nextPageURL = url }
        default:
            break
        }
    }

    private mutating func addEnclosure(_ enclosure: FeedEnclosure) {
        guard let enclosures = episode?.enclosures, enclosures.count < 64, !enclosures.contains(where: { $0.url == enclosure.url }) else { return }
        episode?.enclosures.append(enclosure)
    }

    private mutating func commitEpisode() {
        defer {
            episode = nil
            episodeDepth = nil
        }
        guard episodes.count < Self.maximumEpisodes, let built = episode?.build(resolver: resolver) else { return }
        episodes.append(built)
    }

    // MARK: - Captures

    private mutating func begin(_ target: Target, markup: Bool = false) {
        captured.removeAll(keepingCapacity: true)
        capture = Capture(target: target, depth: stack.count, isMarkup: markup)
    }

    private mutating func appendRaw(_ range: Range<Int>) {
        let room = Self.maximumFieldBytes - captured.count
        guard room > 0 else { return }
        captured.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<min(range.upperBound, range.lowerBound + room)]))
    }

    private mutating func finishCapture(_ target: Target) {
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

    private func text(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
    }

    private func singleLineText(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        value.isEmpty ? nil : HTMLText.plainText(value, singleLine: true)
    }

    private func url(_ value: UnsafeBufferPointer<UInt8>) -> String? {
        value.isEmpty ? nil : resolver.resolve(String(decoding: value, as: UTF8.self))
    }


    private func isPrefixed(_ name: Range<Int>) -> Bool {
        UnsafeBufferPointer(rebasing: bytes[name]).contains(ASCII.colon)
    }

    /// The value of the current start tag's attribute `name`, with references decoded.
    private mutating func attribute(_ name: StaticString) -> String? {
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

    private mutating func integerAttribute(_ name: StaticString) -> Int64? {
        guard let text = attribute(name) else { return nil }
        var copy = text
        return copy.withUTF8 { FeedValue.integer($0) }
    }

    /// A Podlove chapter's `start`: Normal Play Time, `HH:MM:SS.mmm`, `MM:SS` or seconds.
    private static func playTime(_ text: String) -> Double? {
        var copy = text
        return copy.withUTF8 { FeedValue.duration($0) }
    }

    private static func nonEmpty(_ text: String) -> String? {
        let trimmed = HTMLText.plainText(text, singleLine: true)
        return trimmed.isEmpty ? nil : trimmed
    }

    private func notAFeedError() -> FeedParseError {
        if !sawElement {
            let isBlank = bytes.allSatisfy { ASCII.isWhitespace($0) }
            return isBlank ? .empty : .notXML
        }
        if sawHTML { return .htmlPage }
        return .noFeedElement(root: rootName ?? "")
    }
}
