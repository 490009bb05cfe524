import AlmanacModels
@testable import AlmanacViews
import Foundation
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct FeedViewDataTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aFeedAtAGlance() {
        let feed = ParsedFeed(
            title: "Almanac Radio", link: "https://radio.example", author: "Ada", newFeedURL: "https://new.example/feed",
            nextPageURL: "https://radio.example/feed?page=2",
            episodes: [
                ParsedEpisode(guid: "old", title: "Old", published: 1_700_000_000, duration: 3723,
                              enclosures: [FeedEnclosure(url: "https://x/old.mp3", length: 48_400_000)], season: 2, episode: 12),
                ParsedEpisode(guid: "new", title: "", published: 1_800_000_000 - 3 * 86_400, episodeType: "trailer"),
                ParsedEpisode(guid: "undated", title: "Undated", enclosures: [FeedEnclosure(url: "https://x/u.mp3", length: 350_000)]),
            ]
        )
        let preview = FeedPreviewViewData(feed: feed, now: Self.now, newest: 2)
        #expect(preview.title == "Almanac Radio" && preview.byline == "by Ada" && preview.episodeCount == "3 episodes")
        #expect(preview.notes == ["moved to https://new.example/feed", "older episodes at https://radio.example/feed?page=2"])
        #expect(preview.newest.map(\.guid) == ["new", "old"])
        let (new, old) = (preview.newest[0], preview.newest[1])
        #expect(new.title == "Untitled episode" && new.published == "3 days ago" && new.number == "trailer" && new.size.isEmpty)
        #expect(old.published == "2023-11-14" && old.duration == "1:02:03" && old.size == "48 MB" && old.number == "S2 E12")
        let undated = FeedEpisodeViewData(episode: feed.episodes[2], now: Self.now)
        #expect(undated.published == "unknown date" && undated.size == "350 kB" && undated.duration.isEmpty)
        #expect(FeedPreviewViewData(feed: ParsedFeed(title: ""), now: Self.now).title == "(untitled feed)")
    }
}

extension FeedViewDataTests {
    @Test func progressAndPreviewAreWorded() {
        var episode = Episode(id: "e", podcastID: "p", title: "Long", published: Self.now.addingTimeInterval(-3 * 86_400), duration: 5_400, isNew: false)
        var progress = EpisodeProgressViewData(episode: episode, now: Self.now)
        #expect(progress.progress == "" && progress.published == "published 3 days ago" && progress.remaining == "")
        episode.position = 1_080
        progress = EpisodeProgressViewData(episode: episode, now: Self.now)
        #expect(progress.progress == "20% complete" && progress.remaining == "1 h 12 min left")
        episode.position = 5_355
        #expect(EpisodeProgressViewData(episode: episode, now: Self.now).remaining == "45 s left")
        episode.duration = nil
        #expect(EpisodeProgressViewData(episode: episode, now: Self.now).progress == "started")
        episode.played = true
        #expect(EpisodeProgressViewData(episode: episode, now: Self.now).progress == "played")
        episode.position = .infinity
        episode.played = false
        episode.duration = 10
        #expect(EpisodeProgressViewData(episode: episode, now: Self.now).progress == "99% complete")

        let preview = PodcastPreviewViewData(podcast: Podcast(id: "p", title: "The Show", author: "Ada", feedURL: "https://e/feed"))
        #expect(preview.title == "The Show" && preview.byline == "by Ada" && preview.fields["author"] == "Ada")
        #expect(PodcastPreviewViewData(podcast: Podcast(id: "q", title: "", author: "", feedURL: "https://q")).title == "https://q")
    }
}
