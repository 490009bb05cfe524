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

    struct OpenElement {
        var name: Range<Int>
        var element: FeedElement
    }

    /// The field a capture fills.
    enum Target {
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

    struct Capture {
        var target: Target
        /// Index in the stack of the element being captured.
        var depth: Int
        /// Whether the content may be HTML, so child elements are part of it.
        var isMarkup: Bool
    }

    enum Format { case unknown, rss, atom }

    let bytes: UnsafeBufferPointer<UInt8>
    var scanner: XMLScanner
    let resolver: URLResolver
    private var namespaces = NamespaceTable()
    var stack: [OpenElement] = []
    var capture: Capture?
    var captured: [UInt8] = []
    var scratch: [UInt8] = []
    var format = Format.unknown
    var sawElement = false
    var sawHTML = false
    var rootName: String?
    /// The name of the start tag being handled.
    var currentName = 0..<0
    var channel = ChannelDraft()
    var episode: EpisodeDraft?
    /// Index in the stack of the open item or entry.
    var episodeDepth: Int?
    var episodes: [ParsedEpisode] = []

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

    mutating func atomLink(href: String, inItem: Bool, inChannel: Bool) {
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

    mutating func addEnclosure(_ enclosure: FeedEnclosure) {
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
}
