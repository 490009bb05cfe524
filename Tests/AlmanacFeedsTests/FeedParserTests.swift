import AlmanacModels
@testable import AlmanacFeeds
import Foundation
import TestHarness
import Testing

/// The feeds in `Tests/Fixtures/feeds`, one case each.
enum FeedFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/feeds")

    static var names: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()) ?? []
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func parse(_ name: String, feedURL: String? = nil) throws -> ParsedFeed {
        try FeedParser.parse(try Data(contentsOf: directory.appendingPathComponent(name)), feedURL: feedURL)
    }
}

@Suite(.onTestThreads, .timeLimit(.hang)) struct FeedParserTests {
    // MARK: - Formats

    @Test func readsAnRSSFeedWithITunesTags() throws {
        let feed = try FeedFixtures.parse("rss2-itunes.xml")
        let expected = ParsedFeed(
            title: "The Almanac Hour",
            link: "https://almanac.example/show",
            description: "Weather, <b>seasons</b> and the sky.",
            descriptionText: "Weather, seasons and the sky.",
            author: "Ada Almanac",
            language: "en-gb",
            image: "https://almanac.example/cover.jpg",
            explicit: false,
            categories: ["Science", "Earth Sciences", "Leisure"],
            episodes: [
                ParsedEpisode(
                    guid: "almanac-0002",
                    title: "Episode 2: Clouds",
                    link: "https://almanac.example/episodes/2",
                    description: #"<p>Long notes on <a href="https://almanac.example/clouds">clouds</a>.</p><p>Cumulus, stratus &amp; cirrus.</p>"#,
                    descriptionText: "Long notes on clouds.\n\nCumulus, stratus & cirrus.",
                    published: 1_704_781_800,
                    duration: 3123,
                    enclosures: [FeedEnclosure(url: "https://cdn.almanac.example/2.mp3", length: 24_986_239, type: "audio/mpeg")],
                    image: "https://almanac.example/2.jpg",
                    explicit: true,
                    episodeType: "full",
                    season: 1,
                    episode: 2,
                    descriptionLinks: [FeedLink(url: "https://almanac.example/clouds", end: 20)]
                ),
                ParsedEpisode(
                    guid: "https://almanac.example/episodes/trailer",
                    title: "Trailer",
                    link: "https://almanac.example/episodes/trailer",
                    description: "What this show is about.",
                    descriptionText: "What this show is about.",
                    published: 1_704_067_200,
                    duration: 95,
                    enclosures: [FeedEnclosure(url: "https://cdn.almanac.example/trailer.mp3", length: 1_200_000, type: "audio/mpeg")],
                    explicit: false,
                    episodeType: "trailer"
                ),
            ],
            serial: false
        )
        #expect(feed == expected)
    }

    @Test(arguments: [("<itunes:type>serial</itunes:type>", true as Bool?), ("<itunes:type> Episodic </itunes:type>", false), ("<itunes:type>weekly</itunes:type>", nil), ("", nil)])
    func theShowsTypeSaysWhetherItIsSerial(_ element: String, _ serial: Bool?) throws {
        let feed = try FeedParser.parse(Array("""
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Show</title>\(element)
            <item><title>One</title><guid>1</guid><itunes:type>serial</itunes:type></item></channel></rss>
            """.utf8))
        #expect(feed.serial == serial)
        #expect(FeedMapping.details(from: feed, podcastID: "p").podcast.serial == (serial ?? false))
    }

    @Test func readsAnAtomFeed() throws {
        let feed = try FeedFixtures.parse("atom.xml")
        let expected = ParsedFeed(
            title: "Le Ciel",
            link: "https://ciel.example/",
            description: "Un podcast <em>astronomique</em>",
            descriptionText: "Un podcast astronomique",
            author: "Camille Étoile",
            language: "fr",
            image: "https://ciel.example/logo.png",
            categories: ["Astronomie"],
            episodes: [
                ParsedEpisode(
                    guid: "tag:ciel.example,2024:lune",
                    title: "La Lune",
                    link: "https://ciel.example/lune",
                    description: #"<div xmlns="http://www.w3.org/1999/xhtml"><p>Tout sur la <strong>Lune</strong>, &amp; plus.</p></div>"#,
                    descriptionText: "Tout sur la Lune, & plus.",
                    published: 1_709_237_730,
                    enclosures: [
                        FeedEnclosure(url: "https://ciel.example/lune.ogg", length: 1000, type: "audio/ogg"),
                        FeedEnclosure(url: "https://ciel.example/lune.mp3", length: 2000, type: "audio/mpeg"),
                    ]
                ),
                ParsedEpisode(
                    guid: "tag:ciel.example,2024:soleil",
                    title: "Le Soleil",
                    link: "https://ciel.example/soleil",
                    description: "<p>Notre étoile.</p>",
                    descriptionText: "Notre étoile.",
                    published: 1_705_330_800
                ),
            ]
        )
        #expect(feed == expected)
    }

    @Test func readsAnRDFFeedWithItemsOutsideTheChannel() throws {
        let feed = try FeedFixtures.parse("rdf.xml")
        #expect(feed.title == "Old Radio")
        #expect(feed.link == "https://old.example/")
        #expect(feed.description == "Shows from the archive.")
        #expect(feed.language == "de")
        #expect(feed.author == "Archivist")
        #expect(feed.image == "https://old.example/logo.gif")
        #expect(feed.episodes == [
            ParsedEpisode(guid: "https://old.example/1", title: "First broadcast", link: "https://old.example/1",
                          description: "From 1999.", descriptionText: "From 1999.", published: 946_681_140),
            ParsedEpisode(guid: "https://old.example/2", title: "Second broadcast", link: "https://old.example/2",
                          published: 947_203_200),
        ])
    }

    @Test func readsThePodcastingTwoNamespace() throws {
        let feed = try FeedFixtures.parse("podcasting20.xml")
        #expect(feed.locked == true)
        #expect(feed.funding == [
            FeedFunding(url: "https://index.example/donate", text: "Support the show!"),
            FeedFunding(url: "https://patron.example/index", text: ""),
        ])
        #expect(feed.persons == [
            FeedPerson(name: "Adam Host", role: "host", href: "https://index.example/adam", image: "https://index.example/adam.jpg"),
            FeedPerson(name: "Dave Cohost"),
        ])
        let episode = try #require(feed.episodes.first)
        #expect(feed.episodes.count == 1)
        #expect(episode.season == 3)
        #expect(episode.episode == 12)
        #expect(episode.published == 1_706_904_000)
        #expect(episode.chaptersURL == "https://index.example/12-5/chapters.json")
        #expect(episode.transcripts == [
            FeedTranscript(url: "https://index.example/12-5.vtt", type: "text/vtt", language: "en"),
            FeedTranscript(url: "https://index.example/12-5.srt", type: "application/x-subrip"),
        ])
        #expect(episode.persons == [
            FeedPerson(name: "Grace Guest", role: "guest", href: "https://guest.example"),
            FeedPerson(name: "Ed & Itor", role: "Editor"),
        ])
    }

    // MARK: - Identifiers, dates, durations, enclosures, URLs

    @Test func episodesWithoutAGUIDFallBackToEnclosureThenLinkThenAHash() throws {
        let feed = try FeedFixtures.parse("missing-guids.xml")
        #expect(feed.episodes.map(\.guid) == [
            "https://nog.example/a.mp3",
            "https://nog.example/b",
            EpisodeDraft.stableHash(title: "Title and date only", published: 1_712_145_600),
            EpisodeDraft.stableHash(title: "Title only", published: nil),
        ])
        // The empty <item></item> holds nothing worth keeping.
        #expect(feed.episodes.count == 4)
        #expect(feed.episodes[2].guid == "fnv1a64:50d1d54c2d506f51")
        // The same item parsed again gets the same identifier.
        #expect(try FeedFixtures.parse("missing-guids.xml").episodes.map(\.guid) == feed.episodes.map(\.guid))
    }

    @Test func stableHashIsFNV1a64OfTitleNewlineAndPublished() {
        // FNV-1a 64 of the empty string followed by "\n".
        #expect(EpisodeDraft.stableHash(title: "", published: nil) == "fnv1a64:af63c74c8601c8dd")
        #expect(EpisodeDraft.stableHash(title: "A", published: 1) != EpisodeDraft.stableHash(title: "A", published: 2))
    }

    @Test func datesInEveryFormFeedsUse() throws {
        let feed = try FeedFixtures.parse("dates.xml")
        let published = Dictionary(uniqueKeysWithValues: feed.episodes.map { ($0.title, $0.published) })
        let sixThirty: Int64 = 1_704_781_800 // 2024-01-09 06:30 UTC
        #expect(published["rfc822"] == sixThirty)
        #expect(published["no weekday, one-digit day"] == sixThirty)
        #expect(published["two-digit year"] == sixThirty)
        #expect(published["full names, no seconds, EST"] == sixThirty + 5 * 3600)
        #expect(published["PDT"] == sixThirty + 7 * 3600)
        #expect(published["extra whitespace, colon offset"] == sixThirty - 2 * 3600)
        #expect(published["trailing text"] == sixThirty + 8 * 3600)
        #expect(published["no zone"] == sixThirty)
        #expect(published["lowercase month and UT"] == sixThirty)
        #expect(published["iso8601 Z"] == sixThirty)
        #expect(published["iso8601 fraction and offset"] == sixThirty - 5 * 3600 - 30 * 60)
        #expect(published["iso8601 date only"] == sixThirty - 6 * 3600 - 30 * 60)
        #expect(published["iso8601 with a space"] == sixThirty)
        for unparseable in ["garbage", "no such day", "no such month", "iso8601 month 13", "empty"] {
            #expect(published[unparseable] == .some(nil), "\(unparseable)")
        }
        #expect(feed.episodes.count == 18)
    }

    @Test func durationsInEveryForm() throws {
        let feed = try FeedFixtures.parse("durations.xml")
        let durations = Dictionary(uniqueKeysWithValues: feed.episodes.map { ($0.title, $0.duration) })
        #expect(durations["seconds"] == 3600)
        #expect(durations["minutes and seconds"] == 2730)
        #expect(durations["hours"] == 3723)
        #expect(durations["fraction"] == 3723.5)
        #expect(durations["whitespace"] == 720)
        #expect(durations["fractional seconds only"] == 90.25)
        #expect(durations["long minutes"] == 4500)
        #expect(durations["zero"] == 0)
        for garbled in ["negative", "words", "bad part", "empty", "too many parts", "trailing colon"] {
            #expect(durations[garbled] == .some(nil), "\(garbled)")
        }
    }

    @Test func severalEnclosuresAndMediaContentWhenThereAreNone() throws {
        let feed = try FeedFixtures.parse("multiple-enclosures.xml")
        #expect(feed.episodes.map(\.enclosures) == [
            [
                FeedEnclosure(url: "https://fmt.example/a.mp3", length: 100, type: "audio/mpeg"),
                FeedEnclosure(url: "https://fmt.example/a.opus", length: nil, type: "audio/opus"),
            ],
            [
                FeedEnclosure(url: "https://fmt.example/b.m4a", length: 300, type: "audio/mp4"),
                FeedEnclosure(url: "https://fmt.example/b-low.m4a", type: "audio/mp4"),
            ],
            [FeedEnclosure(url: "https://fmt.example/c.mp3", length: 42, type: "audio/mpeg")],
        ])
        #expect(feed.episodes[1].image == "https://fmt.example/b.jpg")
    }

    @Test func relativeURLsResolveAgainstTheFeedsAddress() throws {
        let feed = try FeedFixtures.parse("relative-urls.xml", feedURL: "https://rel.example/podcasts/feed.xml?page=1")
        #expect(feed.link == "https://rel.example/")
        #expect(feed.nextPageURL == "https://rel.example/podcasts/feed.xml?page=2")
        #expect(feed.image == "https://rel.example/podcasts/images/cover.png")
        let one = feed.episodes[0]
        #expect(one.link == "https://rel.example/episodes/one.html")
        #expect(one.enclosures == [FeedEnclosure(url: "https://rel.example/podcasts/media/one.mp3", length: 1, type: "audio/mpeg")])
        #expect(one.image == "https://static.rel.example/one.jpg")
        #expect(one.chaptersURL == "https://rel.example/chapters/one.json")
        #expect(one.transcripts == [FeedTranscript(url: "https://rel.example/podcasts/one.vtt", type: "text/vtt")])
        let two = feed.episodes[1]
        #expect(two.link == "https://elsewhere.example/two")
        #expect(two.enclosures.first?.url == "https://cdn.example/two.mp3?x=1&y=2")
    }

    @Test func relativeURLsAreKeptAsWrittenWithoutAFeedAddress() throws {
        let feed = try FeedFixtures.parse("relative-urls.xml")
        #expect(feed.link == "/")
        #expect(feed.episodes[0].enclosures.first?.url == "media/one.mp3")
    }

    @Test func aMovedAndPagedFeedSaysWhereToGoNext() throws {
        let feed = try FeedFixtures.parse("paged-moved.xml")
        #expect(feed.newFeedURL == "https://new.example/feed.xml")
        #expect(feed.nextPageURL == "https://old.example/feed.xml?page=2")
        #expect(feed.episodes.map(\.guid) == ["p1-1"])
    }

    /// RFC 5005 archived feeds: the subscription document points to the archive before it
    /// (`prev-archive`); an archive's `next-archive` (newer) is not where older episodes are.
    @Test func anArchivedFeedSaysWhereItsOlderEpisodesAre() throws {
        let archived = try FeedParser.parse(Array("""
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>A</title>
            <atom:link rel="current" href="https://a.example/feed.xml"/>
            <atom:link rel="prev-archive" href="/archive/2025.xml"/>
            <item><guid>1</guid><title>One</title></item></channel></rss>
            """.utf8), feedURL: "https://a.example/feed.xml")
        #expect(archived.nextPageURL == "https://a.example/archive/2025.xml")
        let archive = try FeedParser.parse(Array("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
            <link rel="next-archive" href="https://a.example/archive/2026.xml"/>
            <entry><id>0</id><title>Zero</title></entry></feed>
            """.utf8))
        #expect(archive.nextPageURL == nil)
    }

    // MARK: - Text

    @Test func bareAmpersandsAndHTMLEntities() throws {
        let feed = try FeedFixtures.parse("entities.xml")
        #expect(feed.title == "Fish & Chips & Peas")
        #expect(feed.link == "https://ent.example/?a=1&b=2")
        #expect(feed.description == "Café — “quotes” … © ® ™ \u{A0}€5 éé 😀 \u{FFFD} \u{FFFD} \u{FFFD} &unknown; AT&T; R&D")
        #expect(feed.descriptionText == "Café — “quotes” … © ® ™ €5 éé 😀 \u{FFFD} \u{FFFD} \u{FFFD} &unknown; AT&T; R&D")
        let episode = try #require(feed.episodes.first)
        #expect(episode.title == "Tom & Jerry’s Big Day")
        #expect(episode.description == "<p>One&nbsp;<br/>two</p><p>three &lt; four</p><script>alert(1)</script>")
        #expect(episode.descriptionText == "One\ntwo\n\nthree < four")
        #expect(episode.enclosures.first?.url == "https://ent.example/1.mp3?a=1&b=2&c=3")
    }

    @Test func undeclaredPrefixesHaveTheirConventionalMeaning() throws {
        let feed = try FeedFixtures.parse("undeclared-namespaces.xml")
        #expect(feed.author == "Undeclared Author")
        #expect(feed.image == "https://und.example/cover.jpg")
        #expect(feed.explicit == true)
        #expect(feed.locked == false)
        let episode = try #require(feed.episodes.first)
        #expect(episode.duration == 600)
        #expect(episode.image == "https://und.example/1.jpg")
        #expect(episode.published == 1_714_885_505)
        #expect(episode.description == "<p>Body</p>")
    }

    @Test func declaredPrefixesAreMatchedByTheirNamespace() throws {
        let feed = try FeedFixtures.parse("declared-prefixes.xml")
        #expect(feed.author == "Prefix Person")
        #expect(feed.image == "https://odd.example/cover.jpg")
        #expect(feed.nextPageURL == "https://odd.example/feed?page=2")
        #expect(feed.locked == true)
        // Declared on the element that uses it.
        #expect(feed.newFeedURL == "https://odd.example/moved.xml")
        let episode = try #require(feed.episodes.first)
        #expect(episode.duration == 61)
        #expect(episode.season == 2)
        #expect(episode.chaptersURL == "https://odd.example/1.json")
        #expect(episode.enclosures == [FeedEnclosure(url: "https://odd.example/1.mp3", length: 77, type: "audio/mpeg")])
        // content:encoded wins when it is longer than the description.
        #expect(episode.description == "Longer content body than the description.")
    }

    @Test func cdataIsTakenLiterally() throws {
        let feed = try FeedFixtures.parse("cdata.xml")
        #expect(feed.title == "CDATA & Friends")
        #expect(feed.description == "<p>Markup <em>inside</em> CDATA &amp; an entity</p>")
        #expect(feed.descriptionText == "Markup inside CDATA & an entity")
        let episode = try #require(feed.episodes.first)
        #expect(episode.title == "Split & title")
        #expect(episode.guid == "cdata-1")
        #expect(episode.description == "Before <b>bold</b> after & ]]>")
        #expect(episode.descriptionText == "Before bold after & ]]>")
    }

    // MARK: - Encodings

    @Test func latin1IsConvertedToUTF8() throws {
        let feed = try FeedFixtures.parse("latin1.xml")
        #expect(feed.title == "Café Français")
        #expect(feed.description == "¿Qué tal? © à bientôt")
        #expect(feed.episodes.map(\.title) == ["Épisode über alles"])
    }

    @Test func windows1252IsConvertedToUTF8() throws {
        let feed = try FeedFixtures.parse("windows-1252.xml")
        #expect(feed.title == "“Smart” quotes – and €")
        #expect(feed.episodes.map(\.title) == ["It’s here…"])
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let feed = try FeedFixtures.parse("bom.xml")
        #expect(feed.title == "Byte Order Mark ✓")
        #expect(feed.episodes.map(\.guid) == ["bom-1"])
    }

    @Test func utf16IsConvertedToUTF8() throws {
        let feed = try FeedFixtures.parse("utf16.xml")
        #expect(feed.title == "UTF-16 ✓")
        #expect(feed.episodes.map(\.title) == ["After the BOM"])
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let feed = try FeedFixtures.parse("invalid-utf8.xml")
        #expect(feed.title == "Bad \u{FFFD}\u{FFFD} bytes \u{FFFD}")
        #expect(feed.episodes.map(\.title) == ["ok \u{FFFD}"])
    }

    @Test func latin1DeclaredButValidUTF8IsReadAsUTF8() throws {
        let feed = try FeedParser.parse(Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><title>Café</title></channel></rss>"#.utf8))
        #expect(feed.title == "Café")
    }

    /// How often a feed asks to be read: RSS `ttl` (minutes) first, else the syndication
    /// module's period divided by its frequency; nothing, or nonsense, says nothing.
    @Test func theFeedsOwnCadenceIsRead() throws {
        func interval(_ channel: String) throws -> Double? {
            try FeedParser.parse(Array(#"<rss xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"><channel><title>T</title>"#.utf8
                + Array(channel.utf8) + Array("</channel></rss>".utf8))).refreshInterval
        }
        #expect(try interval("<ttl>90</ttl>") == 5_400)
        #expect(try interval("<sy:updatePeriod>hourly</sy:updatePeriod><sy:updateFrequency>2</sy:updateFrequency>") == 1_800)
        #expect(try interval("<sy:updatePeriod> Weekly </sy:updatePeriod>") == 604_800)
        #expect(try interval("<sy:updateFrequency>4</sy:updateFrequency>") == 21_600, "the period is daily when absent")
        #expect(try interval("<ttl>60</ttl><sy:updatePeriod>daily</sy:updatePeriod>") == 3_600, "ttl first")
        #expect(try interval("") == nil)
        #expect(try interval("<ttl>0</ttl>") == nil)
        #expect(try interval("<ttl>soon</ttl>") == nil)
        #expect(try interval("<sy:updatePeriod>fortnightly</sy:updatePeriod>") == nil)
        #expect(try interval("<sy:updatePeriod>daily</sy:updatePeriod><sy:updateFrequency>0</sy:updateFrequency>") == nil)
    }

    // MARK: - Broken feeds

    @Test func aTruncatedFeedKeepsItsCompleteItems() throws {
        let feed = try FeedFixtures.parse("truncated.xml")
        #expect(feed.title == "Cut Short")
        #expect(feed.episodes.map(\.guid) == ["cut-1", "cut-2"])
        #expect(feed.episodes[0].enclosures == [FeedEnclosure(url: "https://cut.example/1.mp3", length: 10, type: "audio/mpeg")])
    }

    @Test func mismatchedTagsCloseBackToTheirOpenElement() throws {
        let feed = try FeedFixtures.parse("mismatched-tags.xml")
        #expect(feed.title == "Mismatched")
        #expect(feed.link == "https://mis.example/")
        #expect(feed.description == "Unclosed <p>paragraph <br> and <i>italic")
        #expect(feed.descriptionText == "Unclosed\n\nparagraph\nand italic")
        #expect(feed.episodes.map(\.guid) == ["mis-1", "mis-2", "mis-3", "mis-4"])
        #expect(feed.episodes.map(\.title) == ["Unclosed title", "Never closed item", "Stray end tags", "Closed by channel"])
        #expect(feed.episodes[0].enclosures == [FeedEnclosure(url: "https://mis.example/1.mp3", type: "audio/mpeg")])
        #expect(feed.episodes[0].duration == 300)
        #expect(feed.episodes[2].description == "text</span>")
    }

    @Test(arguments: [
        ("empty.xml", FeedParseError.Code.empty),
        ("html-page.html", .htmlPage),
        ("not-a-feed.xml", .noFeedElement),
        ("plain-text.txt", .notXML),
    ])
    func documentsThatAreNotFeedsAreRefusedWithAReason(name: String, code: FeedParseError.Code) throws {
        let error = #expect(throws: FeedParseError.self) { try FeedFixtures.parse(name) }
        #expect(error?.code == code)
        #expect(error?.description.isEmpty == false)
    }

    @Test func theReasonSaysWhatTheDocumentIs() {
        let bytes = Array("<?xml version=\"1.0\"?><opml><body/></opml>".utf8)
        #expect(throws: FeedParseError.noFeedElement(root: "opml")) { try FeedParser.parse(bytes) }
        #expect("\(FeedParseError.noFeedElement(root: "opml"))"
            == "This is not a podcast feed: the document has no <rss>, <feed> or <channel> element (its first element is <opml>).")
        #expect(throws: FeedParseError.self) { try FeedParser.parse(Array("   \n\t ".utf8)) }
    }

    @Test func aBareChannelWithoutRSSIsAFeed() throws {
        let feed = try FeedParser.parse(Array("<channel><title>Bare</title><item><guid>1</guid></item></channel>".utf8))
        #expect(feed.title == "Bare")
        #expect(feed.episodes.map(\.guid) == ["1"])
    }

    @Test func everyFixtureParsesFromDataArraysAndNonContiguousCollections() throws {
        for name in FeedFixtures.names {
            let bytes = try FeedFixtures.bytes(name)
            let fromArray = Result { try FeedParser.parse(bytes) }
            let fromSequence = Result { try FeedParser.parse(bytes.lazy.map { $0 }) }
            #expect(String(describing: fromArray) == String(describing: fromSequence), "\(name)")
        }
    }

    // MARK: - Scale and hostile input

    @Test func aLargeGeneratedFeedParsesCompletely() throws {
        let count = 5000
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        let start: Int64 = 1_600_000_000
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:content="http://purl.org/rss/1.0/modules/content/">
            <channel><title>Big Show</title><link>https://big.example/</link><description>Lots.</description>

            """
        for index in 0..<count {
            let published = start + Int64(index) * 3_601
            let date = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(published)))
            xml += """
                <item>
                  <title>Episode \(index): news &amp; views</title>
                  <link>https://big.example/episodes/\(index)</link>
                  <guid isPermaLink="false">big-\(index)</guid>
                  <pubDate>\(date)</pubDate>
                  <description><![CDATA[<p>Notes for \(index).</p>]]></description>
                  <content:encoded><![CDATA[<p>Longer notes for episode \(index).</p><ul><li>One</li><li>Two</li></ul>]]></content:encoded>
                  <enclosure url="https://cdn.big.example/\(index).mp3" length="\(1_000_000 + index)" type="audio/mpeg"/>
                  <itunes:duration>\(index / 3600):\(String(format: "%02d", index / 60 % 60)):\(String(format: "%02d", index % 60))</itunes:duration>
                  <itunes:episode>\(index + 1)</itunes:episode>
                </item>

                """
        }
        xml += "</channel></rss>\n"
        let feed = try FeedParser.parse(Array(xml.utf8))
        #expect(feed.title == "Big Show")
        #expect(feed.episodes.count == count)
        for (index, episode) in feed.episodes.enumerated() {
            let expected = ParsedEpisode(
                guid: "big-\(index)",
                title: "Episode \(index): news & views",
                link: "https://big.example/episodes/\(index)",
                description: "<p>Longer notes for episode \(index).</p><ul><li>One</li><li>Two</li></ul>",
                descriptionText: "Longer notes for episode \(index).\n\nOne\nTwo",
                published: start + Int64(index) * 3_601,
                duration: Double(index),
                enclosures: [FeedEnclosure(url: "https://cdn.big.example/\(index).mp3", length: 1_000_000 + Int64(index), type: "audio/mpeg")],
                episode: index + 1
            )
            if episode != expected {
                Issue.record("episode \(index): \(episode) != \(expected)")
                break
            }
        }
    }

    @Test func deepNestingIsBoundedAndIterative() throws {
        let depth = 200_000
        var xml = "<rss><channel><title>Deep</title>"
        xml += String(repeating: "<a>", count: depth)
        xml += "<item><guid>lost</guid></item>"
        xml += String(repeating: "</a>", count: depth)
        xml += "<item><guid>after</guid></item></channel></rss>"
        let feed = try FeedParser.parse(Array(xml.utf8))
        #expect(feed.title == "Deep")
        #expect(feed.episodes.map(\.guid) == ["after"])
    }

    @Test func oversizedFieldsAreCut() throws {
        let huge = String(repeating: "x", count: 3 << 20)
        let xml = "<rss><channel><title>\(huge)</title><item><guid>1</guid><description>\(huge)</description></item></channel></rss>"
        let feed = try FeedParser.parse(Array(xml.utf8))
        #expect(feed.title.utf8.count == FeedReader.maximumFieldBytes)
        #expect(feed.episodes.first?.description.utf8.count == FeedReader.maximumFieldBytes)
    }

    @Test func entityDeclarationsAreNotExpanded() throws {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [
              <!ENTITY a "aaaaaaaaaa">
              <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
              <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
            ]>
            <rss><channel><title>&c;&c;&c;</title></channel></rss>
            """
        let feed = try FeedParser.parse(Array(xml.utf8))
        #expect(feed.title == "&c;&c;&c;")
    }

    @Test func noMoreThanTheEpisodeLimitIsKept() throws {
        var xml = "<rss><channel><title>Many</title>"
        xml.reserveCapacity(FeedReader.maximumEpisodes * 30)
        for index in 0..<(FeedReader.maximumEpisodes + 5) { xml += "<item><guid>\(index)</guid></item>" }
        xml += "</channel></rss>"
        let feed = try FeedParser.parse(Array(xml.utf8))
        #expect(feed.episodes.count == FeedReader.maximumEpisodes)
        #expect(feed.episodes.last?.guid == "\(FeedReader.maximumEpisodes - 1)")
    }

    @Test(arguments: ["<a \"", "&", "&#x", "</x>", "<br>", "<script>", "<![CDATA[", "<!--"])
    func pathologicalTextStillParses(pattern: String) throws {
        // Each of these, repeated, once made a scan look all the way to the end, again and again.
        let filler = String(repeating: pattern, count: 500_000 / pattern.utf8.count)
        let xml = "<rss><channel><title>T</title><item><guid>1</guid><description>\(filler)</description></item>"
            + "<item><guid>2</guid><title>\(filler)</title></item></channel></rss>"
        let feed = try FeedParser.parse(Array(xml.utf8))
        #expect(feed.title == "T")
        if pattern.hasPrefix("<!") {
            // An unterminated comment or CDATA section runs to the end: the items never close.
            #expect(feed.episodes.isEmpty)
        } else {
            #expect(feed.episodes.map(\.guid) == ["1", "2"])
        }
    }

    @Test func randomMutationsOfEveryFixtureNeverCrash() throws {
        let fixtures = try FeedFixtures.names.map { try FeedFixtures.bytes($0) }.filter { !$0.isEmpty }
        var random = SeededGenerator(seed: 0x5EED_F00D)
        let interesting = Array("<>&;/=\"' ![CDATA[]]>?#x:".utf8) + [0x00, 0x80, 0xC3, 0xFF]
        var parsed = 0
        for _ in 0..<2000 {
            var bytes = fixtures[Int(random.next() % UInt64(fixtures.count))]
            for _ in 0..<(1 + random.next() % 4) {
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 6 {
                case 0: bytes[position] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
                case 1: bytes[position] = interesting[Int(random.next() % UInt64(interesting.count))]
                case 2: bytes.removeSubrange(position...)
                case 3:
                    let end = min(bytes.count, position + Int(random.next() % 200))
                    bytes.insert(contentsOf: bytes[position..<end], at: Int(random.next() % UInt64(bytes.count)))
                case 4: bytes.removeSubrange(position..<min(bytes.count, position + Int(random.next() % 50)))
                default: bytes.insert(interesting[Int(random.next() % UInt64(interesting.count))], at: position)
                }
                if bytes.isEmpty { bytes = [ASCII.lessThan] }
            }
            if (try? FeedParser.parse(bytes)) != nil { parsed += 1 }
        }
        #expect(parsed > 0)
    }
}
