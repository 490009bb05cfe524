import AlmanacModels
@testable import AlmanacViews
import Foundation
import TestHarness
import Testing

/// The interactive episode list's state: pages, the loading row, live changes, keys, and the
/// lines the terminal shows.
@Suite(.onTestThreads, .timeLimit(.hang)) struct EpisodeListStateTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let podcast = Podcast(id: "p1", title: "Night Radio", author: "A", feedURL: "https://example.org/feed")

    /// Episode `n`, `n` days old.
    static func episode(_ n: Int, podcast: String = "p1") -> Episode {
        Episode(id: "e\(n)", podcastID: podcast, title: "Episode \(n)", published: now.addingTimeInterval(-86_400 * Double(n)), duration: 600)
    }

    static func text(_ lines: [StyledLine]) -> [String] { lines.map(\.description) }

    @Test func theLoadingRowShowsWhileAPageComesAndGoesWhenItArrives() {
        var state = EpisodeListState(podcasts: ["p1": Self.podcast])
        state.loadStarted(refresh: false)
        var screen = Self.text(state.screen(width: 70, height: 6, now: Self.now))
        #expect(screen.count == 6)
        #expect(screen[1].contains("Loading…"), "\(screen)")
        state.pageLoaded(refresh: false, items: (1...3).map { Self.episode($0) }, hasMore: true)
        screen = Self.text(state.screen(width: 70, height: 6, now: Self.now))
        #expect(!screen.joined().contains("Loading…"), "\(screen)")
        #expect(screen[0].contains("3 episodes, more to load"))
        #expect(screen[1].hasPrefix("›") && screen[1].contains("Episode 1") && screen[1].contains("Night Radio"), "\(screen)")
        #expect(screen[3].contains("Episode 3"))
        #expect(screen[5] == EpisodeListState.keys)
        // The next page: the loading row after the last episode, then the episodes.
        state.loadStarted(refresh: false)
        screen = Self.text(state.screen(width: 70, height: 6, now: Self.now))
        #expect(screen[4].contains("Loading…"), "\(screen)")
        state.pageLoaded(refresh: false, items: [Self.episode(4)], hasMore: false)
        #expect(state.episodes.map(\.id) == ["e1", "e2", "e3", "e4"] && !state.hasMore && !state.isLoading)
        #expect(Self.text(state.screen(width: 70, height: 6, now: Self.now))[0].contains("4 episodes") == true)
    }

    @Test func movingPastTheEndAsksForMoreAndScrollsToKeepTheSelectionAndLoadingRowVisible() {
        var state = EpisodeListState()
        state.pageLoaded(refresh: false, items: (1...5).map { Self.episode($0) }, hasMore: true)
        // Height 5: three rows between the header and the foot.
        for _ in 0..<4 {
            let past = state.move(.down, height: 5)
            #expect(!past)
        }
        #expect(state.selected == 4 && state.top == 2)
        let past = state.move(.down, height: 5)
        #expect(past, "past the end")
        state.loadStarted(refresh: false)
        state.scroll(height: 5)
        let screen = Self.text(state.screen(width: 50, height: 5, now: Self.now))
        #expect(screen[2].hasPrefix("›") && screen[2].contains("Episode 5") && screen[3].contains("Loading…"), "\(screen)")
        let pageDown = state.move(.pageDown, height: 5)
        #expect(pageDown)
        let pageUp = state.move(.pageUp, height: 5)
        #expect(!pageUp && state.selected == 1)
        let top = state.move(.top, height: 5)
        #expect(!top && state.selected == 0 && state.top == 0)
    }

    @Test func liveChangesFlipMarksAddNewEpisodesAndKeepTheSelection() {
        var state = EpisodeListState(podcasts: ["p1": Self.podcast])
        state.pageLoaded(refresh: false, items: (2...4).map { Self.episode($0) }, hasMore: true)
        state.move(.down, height: 10)
        #expect(state.selectedEpisode?.id == "e3")
        state.apply(.playState(episodeID: "e3", podcastID: "p1", played: true, position: 600))
        #expect(state.episodes[1].played)
        #expect(Self.text(state.screen(width: 60, height: 10, now: Self.now))[2].hasPrefix("›✓"))
        // A newer episode appears at the top; the selection stays on its episode.
        state.apply(.newEpisodes(podcastID: "p1", [Self.episode(1)]))
        #expect(state.episodes.map(\.id) == ["e1", "e2", "e3", "e4"] && state.selectedEpisode?.id == "e3")
        // One older than the oldest shown comes with its page instead.
        state.apply(.newEpisodes(podcastID: "p1", [Self.episode(9)]))
        #expect(state.episodes.count == 4)
        state.apply(.downloaded(episodeID: "e1", podcastID: "p1", file: "/tmp/e1.mp3"))
        #expect(state.episodes[0].file == "/tmp/e1.mp3")
        state.apply(.unsubscribed(podcastID: "p1"))
        #expect(state.episodes.isEmpty && state.selectedEpisode == nil)
    }

    @Test func aViewOfOnePodcastIgnoresOthersEpisodes() {
        var state = EpisodeListState(podcasts: ["p1": Self.podcast], podcastID: "p1")
        state.pageLoaded(refresh: false, items: [Self.episode(1)], hasMore: false)
        state.apply(.newEpisodes(podcastID: "p2", [Self.episode(0, podcast: "p2")]))
        #expect(state.episodes.map(\.id) == ["e1"])
        #expect(Self.text(state.screen(width: 40, height: 4, now: Self.now))[0].hasPrefix("Night Radio"))
        // Its podcast given up elsewhere: said on the screen, not "No episodes yet".
        state.apply(.unsubscribed(podcastID: "p1"))
        #expect(state.message == "Night Radio was unsubscribed (q quits)" && state.episodes.isEmpty)
        state.message = nil
        #expect(Self.text(state.screen(width: 40, height: 4, now: Self.now))[1] == "  No longer subscribed.")
    }

    @Test func aRefreshReplacesTheListAndAFailureSaysSoAndKeepsIt() {
        var state = EpisodeListState()
        state.pageLoaded(refresh: false, items: (1...3).map { Self.episode($0) }, hasMore: true)
        state.loadStarted(refresh: true)
        #expect(Self.text(state.screen(width: 40, height: 8, now: Self.now))[1].contains("Loading…"))
        state.pageLoaded(refresh: true, items: [Self.episode(2)], hasMore: false)
        #expect(state.episodes.map(\.id) == ["e2"])
        state.loadStarted(refresh: false)
        state.loadFailed(refresh: false, message: "feed unreachable")
        #expect(state.episodes.count == 1 && !state.isLoading)
        #expect(Self.text(state.screen(width: 80, height: 5, now: Self.now)).last == "Could not load more: feed unreachable")
    }

    @Test func everyLineFitsTheWidthAndTheScreenIsExactlyItsHeight() {
        var state = EpisodeListState(podcasts: ["p1": Self.podcast])
        state.pageLoaded(refresh: false, items: (1...30).map { Self.episode($0) }, hasMore: false)
        for width in [10, 20, 33, 80] {
            for height in [3, 7, 24] {
                let screen = Self.text(state.screen(width: width, height: height, now: Self.now))
                #expect(screen.count == height)
                for line in screen { #expect(displayWidth(line) <= width, "\(width): \(line)") }
            }
        }
        let empty = EpisodeListState()
        var loaded = empty
        loaded.pageLoaded(refresh: false, items: [], hasMore: false)
        #expect(Self.text(loaded.screen(width: 40, height: 4, now: Self.now))[1].contains("No episodes yet."))
        #expect(!Self.text(empty.screen(width: 40, height: 4, now: Self.now)).joined().contains("No episodes"))
    }
}
