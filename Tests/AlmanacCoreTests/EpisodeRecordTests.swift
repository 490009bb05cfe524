import AlmanacCore
import AlmanacDemo
import AlmanacModels
import AlmanacServices
import Foundation
import Synchronization
import TestHarness
import Testing

/// A chapters fetcher of our own protocol: answers from a table, counting what it was asked.
final class TableChapters: ChaptersFetching {
    let answers: [String: Result<[FeedChapter], LinkedFileError>]
    let asked = Mutex<[String]>([])
    /// The feed each ask said named the file.
    let feeds = Mutex<[String]>([])

    init(_ answers: [String: Result<[FeedChapter], LinkedFileError>]) {
        self.answers = answers
    }

    func chapters(at url: String, namedBy feedURL: String) async throws(LinkedFileError) -> [FeedChapter] {
        asked.withLock { $0.append(url) }
        feeds.withLock { $0.append(feedURL) }
        switch answers[url] ?? .failure(LinkedFileError(.unreadable, "nothing at \(url)")) {
        case .success(let chapters): return chapters
        case .failure(let error): throw error
        }
    }
}

@Suite(.onTestThreads, .timeLimit(.hang)) struct EpisodeRecordTests {
    static let inline = [FeedChapter(start: 0, title: "Start"), FeedChapter(start: 60, title: "Later")]
    static let feed = ParsedFeed(title: "Show", link: "https://e/", image: "https://e/cover.jpg", episodes: [
        ParsedEpisode(guid: "json", title: "With a chapters file", description: "<p>Notes</p>", descriptionText: "Notes", published: 1_700_100_000,
                      season: 1, episode: 2, chaptersURL: "https://e/good.json", chapters: inline),
        ParsedEpisode(guid: "bad", title: "With a bad file", published: 1_700_000_000, chaptersURL: "https://e/bad.json", chapters: inline),
        ParsedEpisode(guid: "down", title: "With a file not there", published: 1_699_900_000, chaptersURL: "https://e/down.json"),
        ParsedEpisode(guid: "plain", title: "Plain", published: 1_699_800_000, chapters: inline),
    ])
    static let fromFile = [FeedChapter(start: 0, title: "Intro", url: "https://e/intro", image: "https://e/intro.jpg"), FeedChapter(start: 90.5, title: "Main")]

    let clock = TestClock()

    func subscribed() throws -> (PodcastsDocument, Podcast) {
        let subscribed = try SubscribedFeed(Self.feed, archive: StateStore.inMemory(logger: .discarding, clock: { [clock] in clock.now }), clock: clock)
        return (subscribed.podcasts, subscribed.podcast)
    }

    func id(_ guid: String, _ podcast: Podcast) -> String { FeedMapping.episodeID(podcastID: podcast.id, guid: guid) }

    @Test func theRecordHoldsTheDetailsAndTheChaptersFileIsFetchedOnce() async throws {
        let (podcasts, podcast) = try subscribed()
        let fetcher = TableChapters(["https://e/good.json": .success(Self.fromFile)])
        let record = try #require(await podcasts.episodeRecord(id("json", podcast), chapters: fetcher))
        #expect(record.episode.title == "With a chapters file" && record.podcastTitle == "Show")
        #expect(record.podcast == PodcastDetails(image: "https://e/cover.jpg", link: "https://e/"))
        #expect(record.details?.descriptionText == "Notes" && record.details?.season == 1 && record.details?.episode == 2)
        // The file's chapters win over the feed's own.
        #expect(record.chapters == Self.fromFile && record.chaptersSource == .json && record.chaptersNote == nil)
        let again = try await podcasts.episodeRecord(id("json", podcast), chapters: fetcher)
        #expect(again == record)
        #expect(fetcher.asked.withLock { $0 } == ["https://e/good.json"])
        // The fetcher is told which feed named the file: where it may fetch it from depends on it.
        #expect(fetcher.feeds.withLock { $0 } == [podcast.feedURL] && !podcast.feedURL.isEmpty)
        #expect(try await podcasts.episodeRecord("nope", chapters: fetcher) == nil)
    }

    @Test func aFileThatIsNotChaptersIsKeptWithANoteAndTheFeedsChaptersShow() async throws {
        let (podcasts, podcast) = try subscribed()
        let fetcher = TableChapters(["https://e/bad.json": .failure(LinkedFileError(.invalid, "https://e/bad.json is not chapters JSON: no \"chapters\" list."))])
        for _ in 0..<2 {
            let record = try #require(await podcasts.episodeRecord(id("bad", podcast), chapters: fetcher))
            #expect(record.chapters == Self.inline && record.chaptersSource == .feed)
            #expect(record.chaptersNote == "https://e/bad.json is not chapters JSON: no \"chapters\" list.")
        }
        #expect(fetcher.asked.withLock { $0.count } == 1)
    }

    @Test func aFileThatCannotBeFetchedIsAskedForAgainNextTime() async throws {
        let (podcasts, podcast) = try subscribed()
        let fetcher = TableChapters([:])
        for _ in 0..<2 {
            let record = try #require(await podcasts.episodeRecord(id("down", podcast), chapters: fetcher))
            #expect(record.chapters.isEmpty && record.chaptersSource == nil && record.chaptersNote == "nothing at https://e/down.json")
        }
        #expect(fetcher.asked.withLock { $0.count } == 2)
        let withoutFetcher = try #require(await podcasts.episodeRecord(id("down", podcast), chapters: nil))
        #expect(withoutFetcher.chaptersNote?.contains("does not fetch chapters files") == true)
        let plain = try #require(await podcasts.episodeRecord(id("plain", podcast), chapters: fetcher))
        #expect(plain.chapters == Self.inline && plain.chaptersSource == .feed && plain.chaptersNote == nil)
    }

    /// Not asked for again at once: a stalled server would hold up every look at the episode.
    @Test func aFileWhoseServerDoesNotAnswerIsAskedForAgainAfterAnHour() async throws {
        let (podcasts, podcast) = try subscribed()
        let fetcher = TableChapters(["https://e/down.json": .failure(LinkedFileError(.unanswered, "nothing at https://e/down.json"))])
        for _ in 0..<2 {
            let record = try #require(await podcasts.episodeRecord(id("down", podcast), chapters: fetcher))
            #expect(record.chapters.isEmpty && record.chaptersSource == nil
                    && record.chaptersNote == "nothing at https://e/down.json. It is asked for again after an hour.", "\(record.chaptersNote ?? "")")
            clock.advance(PodcastsDocument.chaptersRetry - 1)
        }
        #expect(fetcher.asked.withLock { $0.count } == 1)
        clock.advance(1)
        _ = try await podcasts.episodeRecord(id("down", podcast), chapters: fetcher)
        #expect(fetcher.asked.withLock { $0.count } == 2)
    }

    @Test func episodesKeptWithoutDetailsGetThemWhenTheFeedIsReadAgain() async throws {
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)
        let podcast = FeedMapping.podcast(from: Self.feed, feedURL: "https://e/feed")
        try podcasts.subscribe(podcast, episodes: FeedMapping.episodes(from: Self.feed, podcastID: podcast.id))
        let before = try #require(await podcasts.episodeRecord(id("json", podcast), chapters: nil))
        #expect(before.details == nil && before.chapters.isEmpty)
        // Nothing new in the feed: no change, but the details are kept.
        let revision = podcasts.document.revision
        podcasts.record(.parsed(podcast: podcast, episodes: FeedMapping.episodes(from: Self.feed, podcastID: podcast.id),
                                details: FeedMapping.details(from: Self.feed, podcastID: podcast.id)))
        #expect(podcasts.document.revision == revision)
        let after = try #require(await podcasts.episodeRecord(id("plain", podcast), chapters: nil))
        #expect(after.details?.chapters == Self.inline && after.podcast.image == "https://e/cover.jpg")
    }

    /// Through the document, the store's search: titles and notes kept from the feed, in any
    /// case; a search SQLite refuses (an unbalanced quote) read as plain words.
    @Test func aSearchFindsTitlesAndKeptNotesAndReadsBrokenSyntaxAsWords() throws {
        let (podcasts, _) = try subscribed()
        var query = EpisodeQuery()
        query.search = "NOTES chapters"
        #expect(try podcasts.page(query).episodes.map(\.title) == ["With a chapters file"])
        query.search = "\"file"
        #expect(try podcasts.page(query).episodes.map(\.title) == ["With a chapters file", "With a bad file", "With a file not there"])
    }
}
