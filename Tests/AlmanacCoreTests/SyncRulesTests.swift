import AlmanacCore
import AlmanacModels
import Foundation
import TestHarness
import Testing

/// The sync's rules, without network or disk.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SyncRulesTests {
    let time = Date(timeIntervalSince1970: 1_800_000_000)
    let feed = "https://show.example/feed.xml"

    func episode(duration: Double? = 3_600, audio: String? = "https://show.example/1.mp3") -> Episode {
        Episode(id: "e1", podcastID: "p", title: "One", published: time, duration: duration, audioURL: audio)
    }

    @Test func aPlayedMarkIsAPlayActionAtTheEnd() throws {
        let (action, synced) = try #require(SyncRules.action(for: episode(), played: true, position: 120, previous: nil, podcastURL: feed, at: time))
        #expect(action.kind == .play && action.position == 3_600 && action.total == 3_600 && action.started == 0, "the sync knew of no start")
        #expect(action.podcast == feed && action.episode == "https://show.example/1.mp3" && action.timestamp == time)
        #expect(synced == SyncedEpisode(episodeID: "e1", played: true, position: 120, timestamp: time))
    }

    @Test func aPositionIsAPlayActionStartedWhereTheSyncLastKnewIt() throws {
        let previous = SyncedEpisode(episodeID: "e1", played: false, position: 600, timestamp: time.addingTimeInterval(-60))
        let (action, _) = try #require(SyncRules.action(for: episode(), played: false, position: 1_800.4, previous: previous, podcastURL: feed, at: time))
        #expect(action.kind == .play && action.started == 600 && action.position == 1_800 && action.total == 3_600)
    }

    @Test func unplayedAtTheStartIsNew() throws {
        let previous = SyncedEpisode(episodeID: "e1", played: true, position: 3_600, timestamp: time.addingTimeInterval(-60))
        let (action, synced) = try #require(SyncRules.action(for: episode(), played: false, position: 0, previous: previous, podcastURL: feed, at: time))
        #expect(action.kind == .new && action.position == nil && action.total == nil)
        #expect(!synced.played && synced.position == 0)
    }

    @Test func whatTheServerKnowsAlreadyIsNotSentAgain() {
        let previous = SyncedEpisode(episodeID: "e1", played: false, position: 1_800, timestamp: time.addingTimeInterval(-60))
        #expect(SyncRules.action(for: episode(), played: false, position: 1_800.6, previous: previous, podcastURL: feed, at: time) == nil)
        #expect(SyncRules.action(for: episode(), played: false, position: 1_801.2, previous: previous, podcastURL: feed, at: time) != nil)
        #expect(SyncRules.action(for: episode(), played: true, position: 1_800, previous: previous, podcastURL: feed, at: time) != nil)
    }

    @Test func anEpisodeWithoutAudioCannotBeNamedToTheServer() {
        #expect(SyncRules.action(for: episode(audio: nil), played: true, position: 0, previous: nil, podcastURL: feed, at: time) == nil)
        #expect(SyncRules.action(for: episode(audio: nil), file: "/tmp/x.mp3", podcastURL: feed, at: time) == nil)
    }

    @Test func withoutALengthOnlyThePositionIsSent() throws {
        let (action, _) = try #require(SyncRules.action(for: episode(duration: nil), played: false, position: 90, previous: nil, podcastURL: feed, at: time))
        #expect(action.kind == .play && action.position == 90 && action.total == nil && action.started == nil)
        let (played, _) = try #require(SyncRules.action(for: episode(duration: nil), played: true, position: 90, previous: nil, podcastURL: feed, at: time))
        #expect(played.position == 90 && played.total == 90)
    }

    @Test func downloadsAndDeletionsAreActionsToo() {
        #expect(SyncRules.action(for: episode(), file: "/data/One.mp3", podcastURL: feed, at: time)?.kind == .download)
        #expect(SyncRules.action(for: episode(), file: nil, podcastURL: feed, at: time)?.kind == .delete)
    }

    @Test func aServersPlaySetsThePositionAndPastPlayedAtMarksPlayed() {
        let play = { (position: Int, total: Int?) in
            EpisodeAction(podcast: self.feed, episode: "https://show.example/1.mp3", kind: .play, timestamp: self.time, started: 0, position: position, total: total)
        }
        #expect(SyncRules.submission(for: play(1_800, 3_600), on: episode(), playedAt: 0.95) == PlayStateSubmission(episodeID: "e1", position: 1_800))
        #expect(SyncRules.submission(for: play(3_500, 3_600), on: episode(), playedAt: 0.95) == PlayStateSubmission(episodeID: "e1", played: true, position: 3_500))
        // Without a total the feed's duration decides.
        #expect(SyncRules.submission(for: play(3_500, nil), on: episode(), playedAt: 0.95)?.played == true)
        #expect(SyncRules.submission(for: play(3_500, nil), on: episode(duration: nil), playedAt: 0.95) == PlayStateSubmission(episodeID: "e1", position: 3_500))
        let new = EpisodeAction(podcast: feed, episode: "https://show.example/1.mp3", kind: .new, timestamp: time)
        #expect(SyncRules.submission(for: new, on: episode(), playedAt: 0.95) == PlayStateSubmission(episodeID: "e1", played: false, position: 0))
        let download = EpisodeAction(podcast: feed, episode: "https://show.example/1.mp3", kind: .download, timestamp: time)
        #expect(SyncRules.submission(for: download, on: episode(), playedAt: 0.95) == nil)
    }

    @Test func theNewestWinsAndAnEqualTimeIsTheSameChangeComingBack() {
        let known = SyncedEpisode(episodeID: "e1", played: false, position: 10, timestamp: time)
        #expect(SyncRules.isNewer(time.addingTimeInterval(1), than: known))
        #expect(!SyncRules.isNewer(time, than: known))
        #expect(!SyncRules.isNewer(time.addingTimeInterval(-1), than: known))
        #expect(SyncRules.isNewer(time, than: nil))
    }

    @Test func ofManyActionsTheNewestPlayStateOfEachEpisodeCounts() {
        let a = EpisodeAction(podcast: feed, episode: "https://show.example/1.mp3", kind: .play, timestamp: time.addingTimeInterval(20), position: 50)
        let b = EpisodeAction(podcast: feed, episode: "https://show.example/1.mp3", kind: .play, timestamp: time.addingTimeInterval(10), position: 90)
        let c = EpisodeAction(podcast: feed, episode: "https://show.example/2.mp3", kind: .new, timestamp: time)
        let d = EpisodeAction(podcast: feed, episode: "https://show.example/2.mp3", kind: .download, timestamp: time.addingTimeInterval(99))
        #expect(SyncRules.newestPlayState([a, b, c, d]) == [c, a])
    }

    @Test func actionsForEpisodesNotSeenYetAreKeptAMonthAtMostAndAThousand() {
        func action(_ number: Int, daysAgo: Double) -> EpisodeAction {
            EpisodeAction(podcast: feed, episode: "https://show.example/\(number).mp3", kind: .play, timestamp: time.addingTimeInterval(-daysAgo * 86_400), position: 60)
        }
        let kept = SyncRules.keptActions([action(1, daysAgo: 2), action(2, daysAgo: 31), action(3, daysAgo: 29.9), action(4, daysAgo: 0)], now: time)
        #expect(kept.map(\.episode) == ["https://show.example/3.mp3", "https://show.example/1.mp3", "https://show.example/4.mp3"])
        let many = (0..<1_005).map { action($0, daysAgo: Double(1_005 - $0) / 100) }
        let newest = SyncRules.keptActions(many.shuffled(), now: time)
        #expect(newest.count == 1_000 && newest.first?.episode == "https://show.example/5.mp3" && newest.last?.episode == "https://show.example/1004.mp3")
    }

    @Test func theLastSubscriptionChangeOfAFeedWins() {
        let entries = [SyncItem.subscribe("a"), .subscribe("b"), .unsubscribe("a"), .action(EpisodeAction(podcast: "b", episode: "x", kind: .new, timestamp: time)),
                       .unsubscribe("c"), .subscribe("c")].enumerated().map { SyncQueueEntry(id: Int64($0 + 1), item: $1, queuedAt: time) }
        let upload = SyncRules.subscriptionUpload(entries)
        #expect(upload.add == ["b", "c"] && upload.remove == ["a"] && upload.ids == [1, 2, 3, 5, 6])
        #expect(SyncRules.pendingSubscriptions(entries) == ["a": false, "b": true, "c": true])
    }

    @Test func aPlayersManyPositionsAreSentAsTheLastOne() {
        let positions = (0..<20).map { EpisodeAction(podcast: feed, episode: "https://show.example/1.mp3", kind: .play, timestamp: time.addingTimeInterval(Double($0) * 15), position: $0 * 15) }
        let download = EpisodeAction(podcast: feed, episode: "https://show.example/1.mp3", kind: .download, timestamp: time)
        let sent = SyncRules.coalesced(positions + [download])
        #expect(sent.count == 2 && sent.last?.position == 285 && sent.first == download)
    }

    @Test func aClockFarFromTheServersIsRefused() throws {
        try SyncRules.checkClock(server: time.addingTimeInterval(599), local: time, tolerance: 600)
        try SyncRules.checkClock(server: nil, local: time, tolerance: 600)
        let error = try #require(throws: SyncError.self) { try SyncRules.checkClock(server: time.addingTimeInterval(-3 * 3_600 - 1_200), local: time, tolerance: 600) }
        #expect(error.code == .clock && error.message.contains("3 h 20 min apart") && error.message.contains("2027-01-15 08:00:00 UTC"))
    }

    @Test func loginInputIsCheckedAndTidied() throws {
        #expect(try SyncRules.server(" gpodder.net/ ") == "https://gpodder.net")
        #expect(try SyncRules.server("http://127.0.0.1:8080/gpodder/") == "http://127.0.0.1:8080/gpodder")
        #expect(throws: SyncError.self) { try SyncRules.server("ftp://gpodder.net") }
        #expect(throws: SyncError.self) { try SyncRules.server("https://alice:pw@gpodder.net") }
        #expect(throws: SyncError.self) { try SyncRules.server("https://") }
        #expect(throws: SyncError(.invalid, "Give the sync server's address, such as https://gpodder.net or https://cloud.example.org.")) { try SyncRules.server(" ") }
        for walking in ["http://127.0.0.1:8080/../..", "https://cloud.example.org/./nextcloud", "https://cloud.example.org//nextcloud"] {
            let error = #expect(throws: SyncError.self) { try SyncRules.server(walking) }
            #expect(error?.message.contains("has '.', '..' or '//' in its path") == true, "\(walking): \(String(describing: error))")
        }
        #expect(try SyncRules.user(" alice ") == "alice")
        #expect(throws: SyncError.self) { try SyncRules.user("a/b") }
        #expect(try SyncRules.device("almanac-laptop_2.x") == "almanac-laptop_2.x")
        #expect(throws: SyncError.self) { try SyncRules.device("my laptop") }
        #expect(SyncRules.defaultDevice(hostName: "Work Station.local") == "almanac-workstationlocal")
        #expect(SyncRules.defaultDevice(hostName: "") == "almanac")
    }

    @Test func aPrivateFeedsPasswordNeverReachesTheServerAndRewritesAreKept() {
        var urls = SyncURLs()
        #expect(urls.server("https://alice:pw@private.example/feed.xml") == "https://private.example/feed.xml")
        let changed = urls.apply([URLRewrite(from: "https://show.example/feed.xml ", to: "https://show.example/feed.xml"), URLRewrite(from: "ftp://x", to: "")],
                                 sent: ["https://show.example/feed.xml ": "https://show.example/feed.xml "])
        #expect(changed && urls.rewrites.count == 1)
        #expect(urls.server("https://show.example/feed.xml ") == "https://show.example/feed.xml")
        #expect(urls.matches(local: "https://show.example/feed.xml ", remote: "https://show.example/feed.xml"))
        #expect(!urls.matches(local: "https://other.example/feed.xml", remote: "https://show.example/feed.xml"))
    }

    /// Positions and lengths no episode has (1e308 from a client before it was refused, a
    /// feed's `itunes:duration` of 400 digits, an older daemon's kept position) send nothing
    /// rather than trap when made whole seconds.
    @Test func positionsAndLengthsNoEpisodeHasSendNothingAndNeverTrap() throws {
        for position in [1e308, -1, .nan, .infinity, 2_592_001] {
            #expect(SyncRules.action(for: episode(), played: false, position: position, previous: nil, podcastURL: feed, at: time) == nil, "\(position)")
        }
        let huge = try #require(SyncRules.action(for: episode(duration: 1e300), played: false, position: 60, previous: nil, podcastURL: feed, at: time))
        #expect(huge.action.total == nil && huge.action.position == 60, "a length past any episode is unknown")
        let kept = SyncedEpisode(episodeID: "e1", played: false, position: 1e308, timestamp: time.addingTimeInterval(-60))
        let (action, _) = try #require(SyncRules.action(for: episode(), played: false, position: 120, previous: kept, podcastURL: feed, at: time))
        #expect(action.started == 0 && action.position == 120)
    }
}
