import AlmanacCore
import AlmanacModels
import Foundation
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct EpisodePagingTests {
    static func state(_ count: Int, podcast: String = "p") -> PodcastsState {
        var state = PodcastsState(podcasts: [podcast: Podcast(id: podcast, title: "P", author: "", feedURL: "https://p")])
        for number in 0..<count {
            // Pairs share a publication time, so the id decides their order.
            let episode = Episode(id: "\(podcast)-\(String(format: "%03d", number))", podcastID: podcast, title: "#\(number)",
                                  published: Date(timeIntervalSince1970: Double(1_700_000_000 + number / 2 * 60)), duration: nil,
                                  isNew: number % 3 == 0, played: number % 2 == 0)
            state.episodes[episode.id] = episode
        }
        return state
    }

    @Test func pagesCoverTheListOnceInOrder() throws {
        let state = Self.state(25)
        var seen: [String] = []
        var query = EpisodeQuery(podcastID: "p", limit: 10)
        var pages = 0
        while true {
            let page = try state.page(query)
            #expect(page.total == 25)
            seen += page.episodes.map(\.id)
            pages += 1
            guard let next = page.nextCursor else { break }
            query.cursor = next
        }
        #expect(pages == 3)
        #expect(seen == (0..<25).reversed().map { "p-" + String(format: "%03d", $0) })
    }

    @Test func episodesArrivingMeanwhileNeitherShiftNorRepeatAPage() throws {
        var state = Self.state(20)
        let first = try state.page(EpisodeQuery(limit: 5))
        // Five newer episodes arrive before the next page is asked for.
        for extra in 0..<5 {
            let episode = Episode(id: "p-new\(extra)", podcastID: "p", title: "new", published: Date(timeIntervalSince1970: 1_900_000_000), duration: nil)
            state.episodes[episode.id] = episode
        }
        let second = try state.page(EpisodeQuery(limit: 5, cursor: first.nextCursor))
        #expect(second.episodes.map(\.id) == (10..<15).reversed().map { "p-" + String(format: "%03d", $0) })
        #expect(Set(first.episodes.map(\.id)).isDisjoint(with: second.episodes.map(\.id)))
    }

    @Test func filtersOrderAndBadCursors() throws {
        var state = Self.state(12)
        state.episodes.merge(Self.state(4, podcast: "q").episodes) { $1 }
        let unplayedNew = try state.page(EpisodeQuery(onlyNew: true, onlyUnplayed: true, limit: 100))
        #expect(unplayedNew.episodes.allSatisfy { $0.isNew && !$0.played })
        #expect(unplayedNew.total == unplayedNew.episodes.count)
        let oldest = try state.page(EpisodeQuery(podcastID: "q", order: .oldest, limit: 2))
        #expect(oldest.episodes.map(\.id) == ["q-000", "q-001"] && oldest.total == 4)
        let everyone = try state.page(EpisodeQuery(limit: 500))
        #expect(everyone.total == 16 && everyone.nextCursor == nil)
        #expect(throws: SubmissionError.self) { try state.page(EpisodeQuery(cursor: "nonsense")) }
        #expect(EpisodeQuery(limit: 0).limit == 1 && EpisodeQuery(limit: 10_000).limit == 500)
    }

    @Test func datesFarOutOfRangeDoNotTrap() throws {
        for seconds in [1e300, -1e300, Double.infinity, -Double.infinity, Double.nan, 9.3e18] {
            let episode = Episode(id: "x", podcastID: "p", title: "x", published: Date(timeIntervalSince1970: seconds), duration: nil)
            #expect(abs(episode.publishedSeconds) <= 100_000_000_000)
            var state = PodcastsState()
            state.episodes["x"] = episode
            #expect(try state.page(EpisodeQuery()).episodes.count == 1)
            _ = EpisodeQuery.cursor(after: episode)
        }
    }
}

extension EpisodePagingTests {
    @Test func nothingIsDownloadedYet() throws {
        var query = EpisodeQuery(limit: 10)
        query.onlyDownloaded = true
        #expect(try Self.state(5).page(query).total == 0)
    }
}
