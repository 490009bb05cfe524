@testable import AlmanacCore
import AlmanacDemo
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// A podcast's own settings (`PodcastPreferences`, `PodcastsDocument.setPreferences`), kept
/// episodes and played times, in the document without a bus.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PodcastPreferencesTests {
    let clock = TestClock()
    let podcast = Podcast(id: "p", title: "P", author: "A", feedURL: "https://example.com/feed")

    func document(archive: StateStore? = nil, floor: Double = PodcastPreferences.minimumRefreshInterval) throws -> PodcastsDocument {
        let clock = self.clock
        let podcasts = try PodcastsDocument(archive: archive ?? StateStore.inMemory(logger: .discarding, clock: { clock.now }), policy: .init(interval: 3_600), minimumRefreshInterval: floor, clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        let episodes = (1...3).map { Episode(id: "p-\($0)", podcastID: "p", title: "\($0)", published: Date(timeIntervalSince1970: Double($0) * 1000), duration: 600) }
        try podcasts.subscribe(podcast, episodes: episodes)
        return podcasts
    }

    /// The changes a view of the document hears.
    final class Heard: Sendable {
        let changes = Locked<[PodcastsChange]>([])
        init(_ podcasts: PodcastsDocument) {
            podcasts.document.addView(key: ViewKey("v")) { [weak self] event in
                if case .changed(_, let change, _) = event { self?.changes.withLock { $0.append(change) } }
            }
        }
        var all: [PodcastsChange] { changes.withLock { $0 } }
    }

    @Test func settingsAreValidatedWholeAndABadOneChangesNothing() throws {
        let podcasts = try document()
        let before = podcasts.document.revision
        let refused: [(PreferencesSubmission, String)] = [
            (PreferencesSubmission(refreshInterval: 60), "from 300 (5m) to 604800 (7d), or 0 for the cadence the feed's server gives; not 60 (1m)"),
            (PreferencesSubmission(refreshInterval: 700_000), "not 700000"),
            (PreferencesSubmission(refreshInterval: .infinity), "not inf"),
            (PreferencesSubmission(autoDownload: true, keep: 2.5), "'keep' is how many of the newest downloads stay"),
            (PreferencesSubmission(keep: -1), "not -1"),
            (PreferencesSubmission(keep: 1_001), "from 1 to 1000"),
            (PreferencesSubmission(deletePlayedAfter: -5), "'deletePlayedAfter'"),
            (PreferencesSubmission(deletePlayedAfter: .nan), "'deletePlayedAfter'"),
        ]
        for (submission, words) in refused {
            let error = try #require(throws: SubmissionError.self) { try podcasts.setPreferences(submission, of: "p") }
            #expect(error.message.contains(words), "\(error.message)")
        }
        #expect(podcasts.document.revision == before)
        #expect(podcasts.document.snapshot.state.preferences.isEmpty)
        let unknown = try #require(throws: SubmissionError.self) { try podcasts.setPreferences(PreferencesSubmission(keep: 1), of: "nope") }
        #expect(unknown.message.contains("There is no podcast 'nope'. Subscribed: p."))
    }

    @Test func settingsAreKeptAnnouncedAndNamedByIdOrFeed() throws {
        let archive = try StateStore.inMemory(logger: .discarding)
        let podcasts = try document(archive: archive)
        let heard = Heard(podcasts)
        try podcasts.setPreferences(PreferencesSubmission(refreshInterval: 7_200, autoDownload: true, keep: 5, deletePlayedAfter: 604_800, notify: .on), of: "p")
        let expected = PodcastPreferences(refreshInterval: 7_200, autoDownload: true, keep: 5, deletePlayedAfter: 604_800, notify: true)
        #expect(try podcasts.preferences(of: "p").preferences == expected)
        #expect(try archive.podcastsState().preferences["p"] == expected, "on disk before it is applied")
        #expect(heard.all == [.podcastSettings(podcastID: "p", expected)])
        // The same again changes nothing; 0 and "default" go back to the defaults.
        let revision = podcasts.document.revision
        #expect(try podcasts.setPreferences(PreferencesSubmission(keep: 5), of: "https://example.com/feed") == revision)
        try podcasts.setPreferences(PreferencesSubmission(refreshInterval: 0, autoDownload: false, keep: 0, deletePlayedAfter: 0, notify: .default), of: podcast.feedURL)
        #expect(try podcasts.preferences(of: "p").preferences == PodcastPreferences())
        #expect(try podcasts.document.snapshot.state.preferences.isEmpty && archive.podcastsState().preferences.isEmpty)
        // They go with the podcast.
        try podcasts.setPreferences(PreferencesSubmission(keep: 3), of: "p")
        try podcasts.unsubscribe("p")
        #expect(try podcasts.document.snapshot.state.preferences.isEmpty && archive.podcastsState().preferences.isEmpty)
    }

    @Test func notifyOfItsOwnWinsOverTheGlobalSetting() {
        #expect(PodcastPreferences().notifies(globally: true) && !PodcastPreferences().notifies(globally: false))
        #expect(PodcastPreferences(notify: true).notifies(globally: false))
        #expect(!PodcastPreferences(notify: false).notifies(globally: true))
        #expect(PodcastPreferences().deletionDelay(deleteWhenPlayed: true) == 0)
        #expect(PodcastPreferences(deletePlayedAfter: 60).deletionDelay(deleteWhenPlayed: true) == 60)
        #expect(PodcastPreferences().deletionDelay(deleteWhenPlayed: false) == nil)
    }

    @Test func itsOwnRefreshIntervalReplacesTheServersCadence() throws {
        let podcasts = try document()
        let start = clock.now
        // A read in which the server says the feed stays fresh for a day.
        #expect(podcasts.take(["p"], force: true) == ["p"])
        podcasts.record(.notModified(podcastID: "p", freshUntil: start.addingTimeInterval(86_400)))
        #expect(podcasts.nextDue == start.addingTimeInterval(86_400))
        // Ten minutes of its own: the next read comes forward, the server's freshness no longer counts.
        try podcasts.setPreferences(PreferencesSubmission(refreshInterval: 600), of: "p")
        #expect(podcasts.nextDue == start.addingTimeInterval(600))
        clock.advance(599)
        #expect(podcasts.claim(.due).isEmpty)
        clock.advance(1)
        #expect(podcasts.claim(.due).map(\.id) == ["p"])
        podcasts.record(.notModified(podcastID: "p", freshUntil: clock.now.addingTimeInterval(86_400)))
        #expect(podcasts.nextDue == clock.now.addingTimeInterval(600), "its own interval, not the server's day")
        // Back to the server's cadence: its freshness counts again.
        try podcasts.setPreferences(PreferencesSubmission(refreshInterval: 0), of: "p")
        #expect(podcasts.nextDue == clock.now.addingTimeInterval(86_400))
    }

    @Test func theFloorOfTheIntervalIsTheDocumentsOwn() throws {
        #expect(throws: SubmissionError.self) { try document().setPreferences(PreferencesSubmission(refreshInterval: 2), of: "p") }
        let podcasts = try document(floor: 1)
        try podcasts.setPreferences(PreferencesSubmission(refreshInterval: 2), of: "p")
        #expect(try podcasts.preferences(of: "p").preferences.refreshInterval == 2)
        let error = try #require(throws: SubmissionError.self) { try podcasts.setPreferences(PreferencesSubmission(refreshInterval: 0.5), of: "p") }
        #expect(error.message.contains("from 1 to 604800"), "\(error.message)")
    }

    @Test func anEpisodeIsKeptAndLetGoByIdOrGUID() throws {
        let archive = try StateStore.inMemory(logger: .discarding)
        let podcasts = try document(archive: archive)
        let heard = Heard(podcasts)
        try podcasts.submit(.kept(episode: "p-2", kept: true), from: ViewKey("v"))
        #expect(try podcasts.episode("p-2")?.kept == true && archive.episode("p-2")?.kept == true)
        let revision = podcasts.document.revision
        #expect(try podcasts.keep("p-2", true, from: nil) == revision, "kept already: no change")
        try podcasts.keep("p-2", false, from: nil)
        #expect(try podcasts.episode("p-2")?.kept == false)
        #expect(heard.all == [.kept(episodeID: "p-2", podcastID: "p", kept: true), .kept(episodeID: "p-2", podcastID: "p", kept: false)])
        let error = try #require(throws: SubmissionError.self) { try podcasts.keep("nope", true, from: nil) }
        #expect(error.message == "There is no episode 'nope'.")
    }

    @Test func whenAnEpisodeWasPlayedIsNotedOnceAndForgottenWhenUnplayed() throws {
        let clock = self.clock
        let archive = try StateStore.inMemory(logger: .discarding, clock: { clock.now })
        let podcasts = try document(archive: archive)
        let first = clock.now
        try podcasts.submit(PlayStateSubmission(episodeID: "p-1", played: true), from: nil)
        clock.advance(100)
        try podcasts.submit(PlayStateSubmission(episodeID: "p-1", position: 30), from: nil)
        #expect(try podcasts.playedAt(of: ["p-1", "p-2"]) == ["p-1": first], "a later change of position does not move it")
        try podcasts.submit(PlayStateSubmission(episodeID: "p-1", played: false), from: nil)
        #expect(try podcasts.playedAt(of: ["p-1"]).isEmpty)
        try podcasts.markAllPlayed("p", from: nil)
        #expect(try podcasts.playedAt(of: ["p-1", "p-2", "p-3"]) == ["p-1": clock.now, "p-2": clock.now, "p-3": clock.now])
    }
}
