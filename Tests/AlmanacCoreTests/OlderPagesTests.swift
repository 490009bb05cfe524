import AlmanacCore
import AlmanacDemo
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// A list of one podcast goes on past the library into its feed's older pages (RFC 5005),
/// by the rules in `PodcastsDocument.loadOlderEpisodes`.
@Suite(.onTestThreads, .timeLimit(.hang)) struct OlderPagesTests {
    static let podcast = Podcast(id: "p", title: "Paged Show", author: "", feedURL: "https://example.com/feed.xml")

    /// A feed's older pages, kept in memory: a fake of our own `OlderEpisodesFetching`.
    final class PagedFeed: OlderEpisodesFetching, Sendable {
        let pages: [String: OlderEpisodePage]
        let read = Locked<[String]>([])
        let failing = Locked<Bool>(false)

        init(_ pages: [String: OlderEpisodePage]) { self.pages = pages }

        func olderPage(at url: String, of podcast: Podcast) async throws -> OlderEpisodePage {
            read.withLock { $0.append(url) }
            if failing.withLock({ $0 }) { throw SubmissionError("the archive server answered HTTP 503") }
            guard let page = pages[url] else { throw SubmissionError("no page at \(url)") }
            return page
        }
    }

    static func episode(_ n: Int) -> Episode {
        Episode(id: "p-\(n)", podcastID: "p", title: "Episode \(n)", published: Date(timeIntervalSince1970: Double(n) * 86_400), duration: 60)
    }

    static func page(_ numbers: ClosedRange<Int>, next: String?) -> OlderEpisodePage {
        OlderEpisodePage(episodes: numbers.reversed().map(episode), nextPageURL: next)
    }

    func document(olderPagesURL: String? = "https://example.com/page2") throws -> PodcastsDocument {
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)
        try podcasts.subscribe(Self.podcast, episodes: (21...30).map(Self.episode), olderPagesURL: olderPagesURL)
        return podcasts
    }

    @Test func olderPagesAreReadOneALoadAndKeptNeitherNewNorPlayed() async throws {
        let feed = PagedFeed([
            "https://example.com/page2": Self.page(11...20, next: "https://example.com/page3"),
            "https://example.com/page3": Self.page(1...10, next: nil),
        ])
        let podcasts = try document()
        let heard = Locked<[PodcastsChange]>([])
        podcasts.document.addView(key: ViewKey("v")) { event in
            if case .changed(_, let change, _) = event { heard.withLock { $0.append(change) } }
        }
        #expect(try podcasts.hasOlderPages("p"))
        let first = try await podcasts.loadOlderEpisodes(of: "p", from: feed)
        #expect(first.episodes.map(\.id) == (11...20).reversed().map { "p-\($0)" } && first.hasMore)
        #expect(first.episodes.allSatisfy { !$0.isNew && !$0.played })
        #expect(podcasts.document.state.episodeCount == 20)
        let second = try await podcasts.loadOlderEpisodes(of: "p", from: feed)
        #expect(second.episodes.count == 10 && !second.hasMore)
        #expect(try !podcasts.hasOlderPages("p"), "read to the end")
        #expect(try await podcasts.loadOlderEpisodes(of: "p", from: feed).episodes.isEmpty)
        #expect(feed.read.withLock { $0 } == ["https://example.com/page2", "https://example.com/page3"])
        #expect(heard.withLock { $0 } == [.olderEpisodes(podcastID: "p", count: 10), .olderEpisodes(podcastID: "p", count: 10)])
        // The library pages through them now, as any episode.
        let library = try podcasts.page(EpisodeQuery(podcastID: "p", limit: 500))
        #expect(library.total == 30 && library.episodes.last?.id == "p-1")
    }

    @Test func aFeedReadAgainDoesNotStartTheOlderPagesOver() async throws {
        let feed = PagedFeed(["https://example.com/page2": Self.page(11...20, next: nil)])
        let podcasts = try document()
        _ = try await podcasts.loadOlderEpisodes(of: "p", from: feed)
        #expect(try !podcasts.hasOlderPages("p"))
        // The subscription document still announces its second page.
        podcasts.record(.parsed(podcast: Self.podcast, episodes: [], olderPagesURL: "https://example.com/page2"))
        #expect(try !podcasts.hasOlderPages("p"), "read to the end stays so")
    }

    @Test func pagesThatGiveNothingNewAreWalkedPastWithinABound() async throws {
        // Page 2 repeats what the library has (a paged feed whose pages shifted).
        var pages = ["https://example.com/page2": Self.page(21...30, next: "https://example.com/page3"),
                     "https://example.com/page3": Self.page(11...20, next: nil)]
        let shifted = PagedFeed(pages)
        let podcasts = try document()
        #expect(try await podcasts.loadOlderEpisodes(of: "p", from: shifted).episodes.count == 10)

        // A chain of pages with nothing new stops after `olderPagesPerLoad` and says there is more.
        pages = [:]
        for n in 2...20 { pages["https://example.com/page\(n)"] = Self.page(21...30, next: "https://example.com/page\(n + 1)") }
        let repeating = PagedFeed(pages)
        let stuck = try document()
        let result = try await stuck.loadOlderEpisodes(of: "p", from: repeating)
        #expect(result.episodes.isEmpty && result.hasMore)
        #expect(repeating.read.withLock { $0.count } == PodcastsDocument.olderPagesPerLoad)
        // A page that links to itself ends the walk.
        let looping = PagedFeed(["https://example.com/page2": Self.page(21...30, next: "https://example.com/page2")])
        let loop = try document()
        let looped = try await loop.loadOlderEpisodes(of: "p", from: looping)
        #expect(try looped.episodes.isEmpty && !looped.hasMore && !loop.hasOlderPages("p"))
    }

    @Test func aPageThatCannotBeReadChangesNothingAndCanBeTriedAgain() async throws {
        let feed = PagedFeed(["https://example.com/page2": Self.page(11...20, next: nil)])
        let podcasts = try document()
        feed.failing.withLock { $0 = true }
        let revision = podcasts.document.revision
        await #expect(throws: SubmissionError.self) { try await podcasts.loadOlderEpisodes(of: "p", from: feed) }
        #expect(try podcasts.document.revision == revision && podcasts.hasOlderPages("p"))
        feed.failing.withLock { $0 = false }
        #expect(try await podcasts.loadOlderEpisodes(of: "p", from: feed).episodes.count == 10)
    }

    @Test func withoutOlderPagesThereIsNothingPastTheLibrary() async throws {
        let podcasts = try document(olderPagesURL: nil)
        #expect(try !podcasts.hasOlderPages("p"))
        #expect(try await podcasts.loadOlderEpisodes(of: "p", from: PagedFeed([:])).episodes.isEmpty)
        let unread = try document()
        #expect(try unread.hasOlderPages("p"), "the list's reader decides whether it reads them (EpisodeListSource)")
        await #expect(throws: SubmissionError.self) { try await unread.loadOlderEpisodes(of: "nonesuch", from: PagedFeed([:])) }
    }
}
