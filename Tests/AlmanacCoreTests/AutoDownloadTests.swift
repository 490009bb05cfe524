import AlmanacCore
import AlmanacModels
import Foundation
import TestHarness
import Testing

/// `AutoDownload`: which of a refresh's new episodes download by themselves.
@Suite(.onTestThreads, .timeLimit(.hang)) struct AutoDownloadTests {
    func episode(_ id: String, _ published: Double, audio: Bool = true, played: Bool = false, file: String? = nil) -> Episode {
        Episode(id: id, podcastID: "p", title: id, published: Date(timeIntervalSince1970: published), duration: nil, played: played,
                audioURL: audio ? "https://example.com/\(id).mp3" : nil, file: file)
    }

    @Test func onlyWhenAskedNewestFirstAndNoMoreThanKept() {
        let new = [episode("a", 1), episode("b", 3), episode("c", 2), episode("silent", 4, audio: false),
                   episode("done", 5, file: "/d/done.mp3"), episode("heard", 6, played: true)]
        #expect(AutoDownload.episodes(new, preferences: PodcastPreferences()).isEmpty)
        #expect(AutoDownload.episodes(new, preferences: PodcastPreferences(autoDownload: true)).map(\.id) == ["b", "c", "a"])
        #expect(AutoDownload.episodes(new, preferences: PodcastPreferences(autoDownload: true, keep: 2)).map(\.id) == ["b", "c"])
    }

    @Test func trailersAndBonusesOnlyWhenAskedAndTitlesThroughIncludeAndExclude() {
        let new = [episode("Trailer", 1), episode("Bonus: outtakes", 2), episode("Interview one", 3), episode("Interview two (rerun)", 4), episode("News", 5)]
        let kinds: [String: EpisodeKind] = ["Trailer": .trailer, "Bonus: outtakes": .bonus]
        var preferences = PodcastPreferences(autoDownload: true)
        #expect(AutoDownload.episodes(new, preferences: preferences, kinds: kinds).map(\.id) == ["News", "Interview two (rerun)", "Interview one"])
        preferences.include = "^interview"
        preferences.exclude = "rerun"
        #expect(AutoDownload.episodes(new, preferences: preferences, kinds: kinds).map(\.id) == ["Interview one"])
        preferences.include = nil
        preferences.exclude = nil
        preferences.downloadKinds = [.bonus, .trailer]
        #expect(AutoDownload.episodes(new, preferences: preferences, kinds: kinds).map(\.id) == ["Bonus: outtakes", "Trailer"])
        #expect(AutoDownload.needsKinds(preferences) && !AutoDownload.needsKinds(PodcastPreferences()))
    }
}
