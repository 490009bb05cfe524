@testable import AlmanacCore
import AlmanacModels
import AlmanacServices
import Foundation
import Synchronization
import TestHarness
import Testing

/// A transcript fetcher of our own protocol: answers from a table, counting what it was asked.
final class TableTranscripts: TranscriptFetching {
    let answers: [String: Result<[TranscriptSegment], LinkedFileError>]
    let asked = Mutex<[String]>([])
    /// The feed each ask said named the file.
    let feeds = Mutex<[String]>([])

    init(_ answers: [String: Result<[TranscriptSegment], LinkedFileError>]) {
        self.answers = answers
    }

    func transcript(at url: String, format: TranscriptFormat, namedBy feedURL: String) async throws(LinkedFileError) -> [TranscriptSegment] {
        asked.withLock { $0.append(url) }
        feeds.withLock { $0.append(feedURL) }
        switch answers[url] ?? .failure(LinkedFileError(.unreadable, "nothing at \(url)")) {
        case .success(let segments): return segments
        case .failure(let error): throw error
        }
    }
}

/// `PodcastsDocument.transcript`: which link, fetched once and kept, what is asked for again.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TranscriptLookupTests {
    static let feed = ParsedFeed(title: "Show", episodes: [
        ParsedEpisode(guid: "two", title: "Two links", published: 1_700_100_000, transcripts: [
            FeedTranscript(url: "https://e/t.html", type: "text/html"), FeedTranscript(url: "https://e/t.vtt", type: "text/vtt"),
        ]),
        ParsedEpisode(guid: "bad", title: "Not WebVTT", published: 1_700_000_000, transcripts: [FeedTranscript(url: "https://e/bad.vtt", type: "text/vtt")]),
        ParsedEpisode(guid: "slow", title: "Slow server", published: 1_699_950_000, transcripts: [FeedTranscript(url: "https://e/slow.srt", type: "application/x-subrip")]),
        ParsedEpisode(guid: "pdf", title: "Only a PDF", published: 1_699_900_000, transcripts: [FeedTranscript(url: "https://e/t.pdf", type: "application/pdf")]),
        ParsedEpisode(guid: "none", title: "None", published: 1_699_800_000),
    ])
    static let said = [TranscriptSegment(start: 751.4, end: 756, speaker: "Grace", text: "We talk about compost heaps.")]

    let clock = TestClock()

    func subscribed() throws -> (PodcastsDocument, Podcast) {
        let subscribed = try SubscribedFeed(Self.feed, archive: StateStore.inMemory(logger: .discarding, clock: { [clock] in clock.now }), clock: clock)
        return (subscribed.podcasts, subscribed.podcast)
    }

    func id(_ guid: String, _ podcast: Podcast) -> String { FeedMapping.episodeID(podcastID: podcast.id, guid: guid) }

    @Test func theTimedLinkIsFetchedOnceKeptAndSearched() async throws {
        let (podcasts, podcast) = try subscribed()
        let fetcher = TableTranscripts(["https://e/t.vtt": .success(Self.said)])
        let expected = Transcript(url: "https://e/t.vtt", format: .vtt, segments: Self.said)
        #expect(try await podcasts.transcript(id("two", podcast), fetcher: fetcher) == .found(expected))
        #expect(try await podcasts.transcript(id("two", podcast), fetcher: fetcher) == .found(expected))
        #expect(fetcher.asked.withLock { $0 } == ["https://e/t.vtt"])
        // The fetcher is told which feed named the file: where it may fetch it from depends on it.
        #expect(fetcher.feeds.withLock { $0 } == [podcast.feedURL] && !podcast.feedURL.isEmpty)
        #expect(try await podcasts.transcriptMoments(matching: "compost", in: [id("two", podcast), id("bad", podcast)], perEpisode: 3)
                == [TranscriptMoment(episodeID: id("two", podcast), start: 751.4, text: "We talk about compost heaps.")])
        #expect(try await podcasts.transcript("nope", fetcher: fetcher) == .unknownEpisode)
    }

    @Test func aFileThatIsNotATranscriptIsKeptWithItsNoteAndNotAskedForAgain() async throws {
        let (podcasts, podcast) = try subscribed()
        let fetcher = TableTranscripts(["https://e/bad.vtt": .failure(LinkedFileError(.invalid, "It is not WebVTT."))])
        for _ in 0..<2 {
            guard case .found(let transcript) = try await podcasts.transcript(id("bad", podcast), fetcher: fetcher) else { Issue.record("no transcript"); return }
            #expect(transcript.segments.isEmpty && transcript.note == "It is not WebVTT.")
        }
        #expect(fetcher.asked.withLock { $0.count } == 1)
    }

    @Test func aServerThatDidNotAnswerIsAskedAgainOnlyAfterAnHour() async throws {
        let (podcasts, podcast) = try subscribed()
        let fetcher = TableTranscripts(["https://e/slow.srt": .failure(LinkedFileError(.unanswered, "The server did not answer."))])
        _ = try await podcasts.transcript(id("slow", podcast), fetcher: fetcher)
        _ = try await podcasts.transcript(id("slow", podcast), fetcher: fetcher)
        #expect(fetcher.asked.withLock { $0.count } == 1)
        clock.advance(PodcastsDocument.chaptersRetry + 1)
        _ = try await podcasts.transcript(id("slow", podcast), fetcher: fetcher)
        #expect(fetcher.asked.withLock { $0.count } == 2)
    }

    @Test func anHTTPErrorIsNotKeptAndAskedForNextTime() async throws {
        let (podcasts, podcast) = try subscribed()
        let fetcher = TableTranscripts([:])
        for _ in 0..<2 {
            guard case .found(let transcript) = try await podcasts.transcript(id("two", podcast), fetcher: fetcher) else { Issue.record("no transcript"); return }
            #expect(transcript.segments.isEmpty && transcript.note == "nothing at https://e/t.vtt")
        }
        #expect(fetcher.asked.withLock { $0.count } == 2)
    }

    @Test func noReadableLinkSaysWhy() async throws {
        let (podcasts, podcast) = try subscribed()
        let fetcher = TableTranscripts([:])
        #expect(try await podcasts.transcript(id("none", podcast), fetcher: fetcher) == .none("Its feed names no transcript."))
        #expect(try await podcasts.transcript(id("pdf", podcast), fetcher: fetcher)
                == .none("Its feed names transcripts only in formats Almanac does not read (application/pdf)."))
        #expect(fetcher.asked.withLock { $0 }.isEmpty)
    }

    @Test func queueingOrDownloadingAnEpisodeAsksForItsTranscript() {
        #expect(TranscriptPrefetcher.episodes(wantedBy: .queue([QueuedEpisode(episodeID: "a", podcastID: "p"), QueuedEpisode(episodeID: "b", podcastID: "p")])) == ["a", "b"])
        #expect(TranscriptPrefetcher.episodes(wantedBy: .downloaded(episodeID: "a", podcastID: "p", file: "/f.mp3")) == ["a"])
        #expect(TranscriptPrefetcher.episodes(wantedBy: .downloaded(episodeID: "a", podcastID: "p", file: nil)).isEmpty)
        #expect(TranscriptPrefetcher.episodes(wantedBy: .unsubscribed(podcastID: "p")).isEmpty)
    }
}
