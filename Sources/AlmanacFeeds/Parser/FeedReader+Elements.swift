import AlmanacModels

/// What a feed's start tags do: which begin an episode or a capture, and which set a
/// value from their attributes at once.
extension FeedReader {
    /// Acts on the start of an item or entry, or of a text field of the channel or an
    /// episode; returns true when the element holds nothing but attributes (an Atom link).
    mutating func startEpisodeOrText(_ element: FeedElement, inItem: Bool, inChannel: Bool) -> Bool {
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
    mutating func startImageOrMedia(_ element: FeedElement, parent: FeedElement, inItem: Bool, inChannel: Bool) -> Bool {
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
    mutating func startChannelDetail(_ element: FeedElement, parent: FeedElement, inItem: Bool, inChannel: Bool) {
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
    mutating func startPodcastNamespace(_ element: FeedElement, parent: FeedElement, inItem: Bool, inChannel: Bool) {
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
}
