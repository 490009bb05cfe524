import AlmanacCore
import AlmanacModels
import Foundation
import TestHarness
import Testing

/// `DownloadCleanup`, the pure rule: which downloads go, why, and when to look again.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DownloadCleanupTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let day = 86_400.0

    func download(_ id: String, podcast: String = "p", age days: Double, played: Bool = false, playedDaysAgo: Double? = nil,
                  kept: Bool = false) -> DownloadCleanup.Download {
        DownloadCleanup.Download(episodeID: id, podcastID: podcast, file: "/d/\(podcast)/\(id).mp3", published: now.addingTimeInterval(-days * day),
                                 played: played || playedDaysAgo != nil, playedAt: playedDaysAgo.map { now.addingTimeInterval(-$0 * day) }, kept: kept)
    }

    func files(_ deletions: [DownloadCleanup.Deletion]) -> [String] { deletions.map(\.episodeID).sorted() }

    @Test func keepingTheNewestNDeletesTheOlderOnesButNeverAKeptOne() {
        let downloads = [download("e1", age: 1), download("e2", age: 2), download("old", age: 9, kept: true), download("e3", age: 3),
                         download("e4", age: 4), download("q1", podcast: "q", age: 10)]
        let plan = DownloadCleanup.plan(downloads, preferences: ["p": PodcastPreferences(keep: 2)], deleteWhenPlayed: false, inUse: [], now: now)
        // The kept one neither counts nor goes; another podcast keeps everything.
        #expect(files(plan.deletions) == ["e3", "e4"])
        #expect(plan.deletions.allSatisfy { $0.reason == .beyondKeep(2) && $0.podcastID == "p" })
        #expect(plan.deletions.first?.reason.description == "only the newest 2 downloads of its podcast are kept")
        #expect(plan.spared.isEmpty && plan.nextPass == nil, "nothing could go later without a change")
    }

    @Test func playedDownloadsGoWhenTheirTimeIsUpAndTheNextOneSetsTheNextPass() {
        let downloads = [download("long-ago", age: 20, playedDaysAgo: 8), download("recent", age: 5, playedDaysAgo: 2),
                         download("unplayed", age: 1), download("kept", age: 30, playedDaysAgo: 30, kept: true),
                         download("other", podcast: "q", age: 40, playedDaysAgo: 40)]
        let plan = DownloadCleanup.plan(downloads, preferences: ["p": PodcastPreferences(deletePlayedAfter: 7 * day)], deleteWhenPlayed: false,
                                        inUse: [], now: now)
        #expect(files(plan.deletions) == ["long-ago"])
        #expect(plan.deletions.first?.reason == .played(after: 7 * day))
        #expect(plan.deletions.first?.reason.description == "it was played more than 7 days ago")
        // "recent" was played two days ago: due in five.
        #expect(plan.nextPass == now.addingTimeInterval(5 * day))
    }

    @Test func theGlobalDeleteWhenPlayedMeansAtOnceUnlessThePodcastSaysOtherwise() {
        let downloads = [download("p-played", age: 3, playedDaysAgo: 1), download("q-played", podcast: "q", age: 3, playedDaysAgo: 1),
                         download("q-unknown", podcast: "q", age: 4, played: true), download("r-unknown", podcast: "r", age: 4, played: true)]
        let preferences = ["p": PodcastPreferences(deletePlayedAfter: 7 * day), "r": PodcastPreferences(deletePlayedAfter: day)]
        let plan = DownloadCleanup.plan(downloads, preferences: preferences, deleteWhenPlayed: true, inUse: [], now: now)
        // A time of its own wins; played at an unknown time counts only for "at once".
        #expect(files(plan.deletions) == ["q-played", "q-unknown"])
        #expect(plan.deletions.first?.reason.description == "it was played")
        #expect(plan.nextPass == now.addingTimeInterval(6 * day))
        #expect(files(DownloadCleanup.plan(downloads, preferences: [:], deleteWhenPlayed: false, inUse: [], now: now).deletions) == [])
    }

    @Test func aFileAPlayerHasOpenIsSparedAndLookedAtAgainWithinAnHour() {
        let downloads = [download("e1", age: 1), download("e2", age: 2), download("e3", age: 3, playedDaysAgo: 20)]
        let playing: Set<String> = ["/d/p/e2.mp3"]
        let plan = DownloadCleanup.plan(downloads, preferences: ["p": PodcastPreferences(keep: 1, deletePlayedAfter: 30 * day)],
                                        deleteWhenPlayed: false, inUse: playing, now: now)
        #expect(files(plan.deletions) == ["e3"])
        #expect(files(plan.spared) == ["e2"])
        #expect(plan.nextPass == now.addingTimeInterval(DownloadCleanup.retryWhileInUse))
        // Once the player moves on, it goes.
        #expect(files(DownloadCleanup.plan(downloads, preferences: ["p": PodcastPreferences(keep: 1)], deleteWhenPlayed: false, inUse: [], now: now).deletions) == ["e2", "e3"])
    }

    @Test func aPodcastWithoutSettingsOfItsOwnLosesNothing() {
        let downloads = (1...50).map { download("e\($0)", age: Double($0), playedDaysAgo: Double($0)) }
        let plan = DownloadCleanup.plan(downloads, preferences: [:], deleteWhenPlayed: false, inUse: [], now: now)
        #expect(plan == DownloadCleanup.Plan())
    }

    @Test(arguments: [(1.0, "1 second"), (45, "45 seconds"), (90, "2 minutes"), (7_200, "2 hours"), (86_400, "1 day"), (604_800, "7 days")])
    func spansAreSaidInTheirLargestUnit(seconds: Double, words: String) {
        #expect(DownloadCleanup.Reason.played(after: seconds).description == "it was played more than \(words) ago")
    }
}
