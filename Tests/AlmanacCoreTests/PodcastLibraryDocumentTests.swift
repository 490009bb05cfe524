import AlmanacCore
import AlmanacDemo
import AlmanacModels
import AlmanacServices
import Foundation
import Synchronization
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct PodcastLibraryDocumentTests {
    static let feed = ParsedFeed(title: "Show", author: "Ada", episodes: [
        ParsedEpisode(guid: "a", title: "Old", published: 1_700_000_000, enclosures: [FeedEnclosure(url: "https://x/a.mp3")]),
        ParsedEpisode(guid: "b", title: "Newest", published: 1_700_100_000),
        ParsedEpisode(guid: "a", title: "Old again (same GUID)", published: 1_700_000_500),
    ])

    @Test func idsAreShortAndStable() {
        let id = FeedMapping.podcastID(feedURL: "https://example.com/feed.xml")
        #expect(id.count == 8 && id == FeedMapping.podcastID(feedURL: "https://example.com/feed.xml"))
        #expect(id != FeedMapping.podcastID(feedURL: "https://example.com/feed.xml?"))
        let episodes = FeedMapping.episodes(from: Self.feed, podcastID: id)
        #expect(episodes.map(\.title) == ["Old", "Newest"])
        #expect(episodes[0].id == FeedMapping.episodeID(podcastID: id, guid: "a") && episodes[0].id.hasPrefix(id + "-"))
        #expect(episodes[0].audioURL == "https://x/a.mp3")
    }

    @Test func aNewSubscriptionAnnouncesOnlyItsNewestEpisodeAsNew() throws {
        let archive = RefusingPodcastArchive(wrapping: try StateStore.inMemory(logger: .discarding))
        let podcasts = try PodcastsDocument(archive: archive, logger: .discarding)
        let podcast = FeedMapping.podcast(from: Self.feed, feedURL: "https://e/feed")
        try podcasts.subscribe(podcast, episodes: FeedMapping.episodes(from: Self.feed, podcastID: podcast.id))
        let episodes = podcasts.document.snapshot.state.episodes(of: podcast.id)
        #expect(episodes.map(\.title) == ["Newest", "Old"])
        #expect(episodes.map(\.isNew) == [true, false])
        #expect(try archive.podcastsState() == podcasts.document.snapshot.state)
        #expect(podcasts.podcast("https://e/feed")?.id == podcast.id)
    }

    @Test func theUsersTitleSurvivesARefreshAndAMovedFeedIsRemembered() throws {
        let archive = RefusingPodcastArchive(wrapping: try StateStore.inMemory(logger: .discarding))
        let podcasts = try PodcastsDocument(archive: archive, logger: .discarding)
        let podcast = Podcast(id: "p", title: "Feed Title", author: "A", feedURL: "https://old/feed")
        try podcasts.subscribe(podcast)
        try podcasts.rename("p", to: "  Mine  ")
        podcasts.record(.parsed(podcast: Podcast(id: "p", title: "Feed Title 2", author: "A", feedURL: "https://new/feed"), episodes: []))
        let kept = try #require(podcasts.document.snapshot.state.podcasts["p"])
        #expect(kept.title == "Mine" && kept.feedURL == "https://new/feed")
        #expect(try archive.podcastsState().podcasts["p"] == kept)
        #expect(throws: SubmissionError.self) { try podcasts.rename("p", to: "   ") }
        #expect(throws: SubmissionError.self) { try podcasts.rename("q", to: "Other") }
    }

    @Test func aWriteTheDiskRefusesChangesNothing() throws {
        let archive = RefusingPodcastArchive(wrapping: try StateStore.inMemory(logger: .discarding))
        let podcasts = try PodcastsDocument(archive: archive, logger: .discarding)
        let podcast = FeedMapping.podcast(from: Self.feed, feedURL: "https://e/feed")
        try podcasts.subscribe(podcast, episodes: FeedMapping.episodes(from: Self.feed, podcastID: podcast.id))
        let before = podcasts.document.snapshot
        archive.refusing.store(true, ordering: .relaxed)
        let episode = try #require(before.state.episodes.keys.first)
        #expect(throws: StorageError.self) { try podcasts.submit(PlayStateSubmission(episodeID: episode, played: true), from: nil) }
        #expect(throws: StorageError.self) { try podcasts.unsubscribe(podcast.id) }
        // A refresh whose news cannot be kept is reported, and its episodes stay unseen, so the next refresh finds them again.
        podcasts.record(.parsed(podcast: podcast, episodes: [Episode(id: "x", podcastID: podcast.id, title: "X", published: Date(), duration: nil)]))
        let after = podcasts.document.snapshot
        #expect(after.state == before.state)
        #expect(after.revision == before.revision + 1)
        archive.refusing.store(false, ordering: .relaxed)
        try podcasts.unsubscribe(podcast.id)
        #expect(try podcasts.document.snapshot.state.episodes.isEmpty && archive.podcastsState().episodes.isEmpty)
    }
}
