@testable import AlmanacCore
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import TestHarness
import Testing

/// The Up Next queue in the podcasts document: its edits' rules (`QueueSubmission`), edits
/// from many threads at once through the owner, and what leaves or joins it with the change
/// that causes it, heard by a view that runs the one reducer.
@Suite(.onTestThreads, .timeLimit(.hang)) struct UpNextQueueTests {
    static let podcast = Podcast(id: "p", title: "Show", author: "", feedURL: "https://example.org/p.xml")
    static let other = Podcast(id: "o", title: "Other", author: "", feedURL: "https://example.org/o.xml")

    static func episode(_ podcast: String, _ number: Int, played: Bool = false) -> Episode {
        Episode(id: "\(podcast)-\(number)", podcastID: podcast, title: "\(podcast) \(number)",
                published: Date(timeIntervalSince1970: 1_800_000_000 + Double(number) * 86_400), duration: 1_000, played: played)
    }

    /// A document with `count` episodes of `p` (the last played) and three of `o`.
    func document(count: Int = 6) throws -> PodcastsDocument {
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)
        try podcasts.subscribe(Self.podcast, episodes: (1...count).map { Self.episode("p", $0, played: $0 == count) })
        try podcasts.subscribe(Self.other, episodes: (1...3).map { Self.episode("o", $0) })
        return podcasts
    }

    func ids(_ podcasts: PodcastsDocument) -> [String] {
        podcasts.document.snapshot.state.queue.map(\.episodeID)
    }

    @Test func editsFollowTheirRulesAndARefusalChangesNothing() throws {
        let podcasts = try document()
        try podcasts.editQueue(.add(["p-1", "p-2"], next: false), from: nil)
        try podcasts.editQueue(.add(["o-1", "p-3"], next: true), from: nil)
        #expect(ids(podcasts) == ["o-1", "p-3", "p-1", "p-2"])
        // Queued already: stays where it is, unless --next moves it to the head. Given twice: once.
        try podcasts.editQueue(.add(["p-1", "o-2", "o-2"], next: false), from: nil)
        #expect(ids(podcasts) == ["o-1", "p-3", "p-1", "p-2", "o-2"])
        try podcasts.editQueue(.add(["p-2"], next: true), from: nil)
        #expect(ids(podcasts) == ["p-2", "o-1", "p-3", "p-1", "o-2"])
        // By its feed's GUID too (the id's tail here).
        try podcasts.editQueue(.move("o-2", to: 1), from: nil)
        try podcasts.editQueue(.move("p-2", to: 5), from: nil)
        #expect(ids(podcasts) == ["o-2", "o-1", "p-3", "p-1", "p-2"])
        try podcasts.editQueue(.remove(["o-1", "p-3"]), from: nil)
        #expect(ids(podcasts) == ["o-2", "p-1", "p-2"])

        let revision = podcasts.document.revision
        let refusals: [(QueueSubmission, String)] = [
            (.move("p-1", to: 4), "There is no position 4 in the queue: it holds 3 episodes, so give 1 to 3."),
            (.move("p-1", to: 0), "There is no position 0"),
            (.move("p-4", to: 1), "The episode 'p-4' is not in the queue"),
            (.add(["p-4", "nope"], next: false), "There is no episode 'nope'"),
            (.add(["p-6"], next: false), "The episode 'p-6' is played"),
            (.remove(["p-1", "p-5"]), "The episode 'p-5' is not in the queue"),
            (.add([], next: false), "Say which episodes"),
        ]
        for (edit, words) in refusals {
            let error = try #require(throws: SubmissionError.self) { try podcasts.editQueue(edit, from: nil) }
            #expect(error.message.contains(words), "\(edit): \(error.message)")
        }
        #expect(podcasts.document.revision == revision)
        #expect(ids(podcasts) == ["o-2", "p-1", "p-2"])
        // An edit that changes nothing spends no revision.
        try podcasts.editQueue(.add(["p-1"], next: false), from: nil)
        #expect(podcasts.document.revision == revision)
        try podcasts.editQueue(.clear, from: nil)
        #expect(ids(podcasts) == [])
    }

    @Test func theQueueIsBounded() throws {
        let full = (1...QueueSubmission.maximumLength).map { QueuedEpisode(episodeID: "x-\($0)", podcastID: "x") }
        let refused = try #require(throws: SubmissionError.self) {
            try QueueSubmission.add(["p-1"], next: false).applied(to: full) { _ in Self.episode("p", 1) }
        }
        #expect(refused.message.contains("at most 1000 episodes; it has 1000, and this would make 1001"), "\(refused.message)")
        // Queued already: no growth, no refusal.
        #expect(try QueueSubmission.add(["x-5"], next: true).applied(to: full) { _ in Episode(id: "x-5", podcastID: "x", title: "", published: .now, duration: nil) }.first?.episodeID == "x-5")
        // New episodes of an auto-queue podcast fill only what room is left.
        let joined = PodcastsDocument.queue(Array(full.dropLast(1)), joinedBy: [Self.episode("p", 1), Self.episode("p", 2)], serial: true)
        #expect(joined.count == QueueSubmission.maximumLength && joined.last?.episodeID == "p-1")
    }

    @Test func editsFromManyThreadsAtOnceAreNeverLost() throws {
        let podcasts = try document(count: 201)
        try podcasts.editQueue(.add((1...8).map { "p-\($0)" }, next: false), from: nil)
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<24 {
                do {
                    try podcasts.editQueue(.add(["p-\(9 + thread * 24 + round)"], next: round % 2 == 0), from: ViewKey("client \(thread)"))
                    try podcasts.editQueue(.move("p-\(1 + thread)", to: 1 + round % 8), from: ViewKey("client \(thread)"))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(Set(ids(podcasts)) == Set((1...200).map { "p-\($0)" }) && ids(podcasts).count == 200)
    }

    @Test func whatLeavesOrJoinsTheQueueIsHeardRightAfterWhatCausedIt() throws {
        let podcasts = try document()
        var copy = podcasts.document.snapshot.state
        let heard = Locked<[PodcastsChange]>([])
        podcasts.document.addView(key: ViewKey("view")) { event in
            if case .changed(_, let change, _) = event { heard.withLock { $0.append(change) } }
        }
        try podcasts.editQueue(.add(["p-1", "p-2", "p-3", "o-1", "o-2"], next: false), from: nil)

        // Marked played: out of the queue, in a `queue` change right after the play state.
        try podcasts.submit(PlayStateSubmission(episodeID: "p-2", played: true), from: nil)
        // A player past the played mark: the same.
        try podcasts.recordPlayback(of: "p-3", at: 999, length: 1_000)
        // A position alone leaves it queued.
        try podcasts.recordPlayback(of: "p-1", at: 100, length: 1_000)
        #expect(ids(podcasts) == ["p-1", "o-1", "o-2"])
        // Every episode of a podcast played, and a podcast given up.
        try podcasts.markAllPlayed("p", from: nil)
        #expect(ids(podcasts) == ["o-1", "o-2"])
        try podcasts.unsubscribe("o")
        #expect(ids(podcasts) == [])

        let changes = heard.withLock { $0 }
        let kinds = changes.map { change -> String in
            switch change {
            case .queue(let queue): "queue \(queue.map(\.episodeID).joined(separator: ","))"
            case .playState(let id, _, let played, _): "playState \(id) \(played)"
            case .allPlayed(let id, _): "allPlayed \(id ?? "")"
            case .unsubscribed(let id): "unsubscribed \(id)"
            default: "\(change)"
            }
        }
        #expect(kinds == [
            "queue p-1,p-2,p-3,o-1,o-2",
            "playState p-2 true", "queue p-1,p-3,o-1,o-2",
            "playState p-3 true", "queue p-1,o-1,o-2",
            "playState p-1 false",
            "allPlayed p", "queue o-1,o-2",
            "unsubscribed o", "queue ",
        ])
        // A view running the one reducer on what it heard has the document's queue.
        for change in changes { copy.apply(change) }
        #expect(copy.queue == podcasts.document.snapshot.state.queue)
    }

    @Test func anAutoQueuePodcastsNewEpisodesJoinSerialOldestFirst() throws {
        let podcasts = try document(count: 2)
        var autoQueue = PreferencesSubmission()
        autoQueue.autoQueue = true
        try podcasts.setPreferences(autoQueue, of: "p")
        #expect(podcasts.document.snapshot.state.preferences(of: "p").autoQueue)
        try podcasts.editQueue(.add(["o-1"], next: false), from: nil)
        var details = FeedDetails()
        details.podcast.serial = true
        podcasts.record(.parsed(podcast: Self.podcast, episodes: (1...4).map { Self.episode("p", $0) }, details: details))
        #expect(ids(podcasts) == ["o-1", "p-3", "p-4"])
        // An episodic show's: newest first. Another podcast's: never, unless it asks.
        podcasts.record(.parsed(podcast: Self.podcast, episodes: (1...6).map { Self.episode("p", $0) }))
        podcasts.record(.parsed(podcast: Self.other, episodes: (1...5).map { Self.episode("o", $0) }))
        #expect(ids(podcasts) == ["o-1", "p-3", "p-4", "p-6", "p-5"])
    }
}
