import AlmanacModels
import Foundation
import TestHarness
import Testing

/// The rules of steering a player, as values: when a sleep timer pauses (`SleepTimer`), which
/// chapter next and previous go to (`ChapterSeek`), and a podcast's skip and speed settings.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PlayerRulesTests {
    let chapters = [FeedChapter(start: 0, title: "A"), FeedChapter(start: 60, title: "B"), FeedChapter(start: 120, title: "C")]
    let now = Date(timeIntervalSince1970: 1_000_000)

    @Test func aTimedSleepPausesAtItsMomentWhateverThePlayerDoes() throws {
        let timer = try SleepTimer.after(300, now: now)
        #expect(timer.delay(now: now.addingTimeInterval(100), position: 5, rate: 2, length: nil, chapters: []) == 200)
        #expect(timer.delay(now: now.addingTimeInterval(400), position: 5, rate: 1, length: nil, chapters: []) == 0)
        for bad in [0, 0.5, -1, 86_401, .infinity, .nan] as [Double] {
            #expect(throws: SubmissionError.self) { try SleepTimer.after(bad, now: now) }
        }
    }

    @Test func theEndOfTheEpisodeFollowsThePositionAndTheRate() {
        #expect(SleepTimer.endOfEpisode.delay(position: 100, rate: 1, length: 300, chapters: []) == 198)
        #expect(SleepTimer.endOfEpisode.delay(position: 100, rate: 2, length: 300, chapters: []) == 99)
        #expect(SleepTimer.endOfEpisode.delay(position: 100, rate: 1, length: nil, chapters: []) == nil, "no length: cannot be told")
        #expect(SleepTimer.endOfEpisode.delay(position: 400, rate: 1, length: 300, chapters: []) == 0)
    }

    /// A player that says it plays at a tiny rate (MPRIS allows any positive one) is counted at
    /// `slowestRate`, so its timer comes; and no end is further than a day away.
    @Test func aTimerToTheEndCountsAtLeastAQuarterSpeedAndAtMostADay() {
        #expect(SleepTimer.endOfEpisode.delay(position: 100, rate: 1e-9, length: 300, chapters: []) == 198 / SleepTimer.slowestRate)
        #expect(SleepTimer.endOfChapter.delay(position: 10, rate: 1e-300, length: 300, chapters: chapters) == 50 / SleepTimer.slowestRate)
        #expect(SleepTimer.endOfEpisode.delay(position: 100, rate: 0.5, length: 300, chapters: []) == 396, "a slow rate above the floor is the player's")
        #expect(SleepTimer.endOfEpisode.delay(position: 0, rate: 1, length: 9.2e12, chapters: []) == SleepTimer.longest)
        #expect(SleepTimer.endOfEpisode.delay(position: 0, rate: 1e-9, length: 1e9, chapters: []) == SleepTimer.longest)
    }

    @Test func theEndOfAChapterIsWhereTheNextBegins() {
        #expect(SleepTimer.endOfChapter.delay(position: 10, rate: 1, length: 300, chapters: chapters) == 50)
        #expect(SleepTimer.endOfChapter.delay(position: 60, rate: 1, length: 300, chapters: chapters) == 60, "at a chapter's start: its own end")
        #expect(SleepTimer.endOfChapter.delay(position: 130, rate: 1, length: 300, chapters: chapters) == 168, "the last chapter ends with the episode")
        #expect(SleepTimer.endOfChapter.delay(position: 10, rate: 1, length: 300, chapters: []) == nil)
    }

    @Test func nextAndPreviousChapter() {
        #expect(ChapterSeek.target(chapters, from: 10, offset: 1)?.start == 60)
        #expect(ChapterSeek.target(chapters, from: 60, offset: 1)?.start == 120)
        #expect(ChapterSeek.target(chapters, from: 130, offset: 1) == nil, "past the last")
        #expect(ChapterSeek.target(chapters, from: 61, offset: -1)?.start == 0, "within 3 s of its start: the chapter before")
        #expect(ChapterSeek.target(chapters, from: 90, offset: -1)?.start == 60, "further in: the start of this one")
        #expect(ChapterSeek.target(chapters, from: 1, offset: -1)?.start == 0, "before the first: its start")
        #expect(ChapterSeek.target([], from: 10, offset: 1) == nil)
        #expect(ChapterSeek.target(chapters.reversed(), from: 10, offset: 2)?.start == 120, "in order of start, whatever the order given")
    }

    @Test func skipAndSpeedSettingsAreCheckedBeforeAnythingChanges() throws {
        let set = try PreferencesSubmission(skipIntro: 45, skipOutro: 30, speed: 1.5).applied(to: PodcastPreferences())
        #expect(set.skipIntro == 45 && set.skipOutro == 30 && set.speed == 1.5)
        let cleared = try PreferencesSubmission(skipIntro: 0, skipOutro: 0, speed: 0).applied(to: set)
        #expect(cleared.isDefault)
        for bad in [PreferencesSubmission(speed: 4.5), PreferencesSubmission(speed: 0.2), PreferencesSubmission(skipIntro: -1),
                    PreferencesSubmission(skipOutro: 3_601), PreferencesSubmission(skipIntro: 10, speed: .nan)] {
            #expect(throws: SubmissionError.self) { try bad.applied(to: set) }
        }
    }
}
