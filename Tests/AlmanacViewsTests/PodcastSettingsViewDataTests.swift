import AlmanacModels
@testable import AlmanacViews
import Foundation
import TestHarness
import Testing

/// A podcast's own settings in words (`PodcastSettingsViewData`), in `podcasts list` at 80
/// and 120 columns, and the times and sizes the CLI reads.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PodcastSettingsViewDataTests {
    let own = PodcastPreferences(refreshInterval: 7_200, autoDownload: true, keep: 5, deletePlayedAfter: 7 * 86_400, notify: false)

    @Test func settingsAreWordedAsTheCommandTakesThem() {
        let defaults = PodcastSettingsViewData(PodcastPreferences())
        #expect(defaults.rows.map(\.value) == ["server", "off", "all", "off", "default", "off", "off", "off", "player",
                                                    "", "", "full"])
        #expect(defaults.rows.map(\.name) == PodcastSettingsViewData.names)
        #expect(defaults.summary == "refresh as the server says, auto-download off, keep all, delete played never, notify default")
        #expect(defaults.json == .object(["refresh-interval": .null, "auto-download": .boolean(false), "keep": .null, "delete-played-after": .null, "notify": .null,
                                          "auto-queue": .boolean(false), "skip-intro": .null, "skip-outro": .null, "speed": .null,
                                          "include": .null, "exclude": .null, "episode-types": .array([.string("full")])]))
        let view = PodcastSettingsViewData(own)
        #expect(view.rows.map(\.value) == ["2h", "on", "5", "7d", "off", "off", "off", "off", "player",
                                                "", "", "full"])
        #expect(view.summary == "refresh every 2h, auto-download on, keep 5, delete played after 7d, notify off")
        #expect(view.json == .object(["refresh-interval": .number(7_200), "auto-download": .boolean(true), "keep": .integer(5),
                                      "delete-played-after": .number(604_800), "notify": .boolean(false), "auto-queue": .boolean(false),
                                      "skip-intro": .null, "skip-outro": .null, "speed": .null,
                                      "include": .null, "exclude": .null, "episode-types": .array([.string("full")])]))
        var queueing = own
        queueing.autoQueue = true
        #expect(PodcastSettingsViewData(queueing).summary == "refresh every 2h, auto-download on, keep 5, delete played after 7d, notify off, auto-queue on")
        let player = PodcastSettingsViewData(PodcastPreferences(skipIntro: 45, skipOutro: 90, speed: 1.5))
        #expect(player.rows.filter { ["skip-intro", "skip-outro", "speed"].contains($0.name) }.map(\.value) == ["45s", "1m30s", "1.5"])
        #expect(player.json["speed"] == .number(1.5) && player.json["skip-intro"] == .number(45))
    }

    @Test func aWatchSaysWhatChanged() {
        let podcast = Podcast(id: "k3x9q2mz", title: "Garden Weather", author: "R. Fern", feedURL: "https://garden.example/feed.xml")
        let settings = PodcastChangeViewData.podcastSettings("k3x9q2mz", podcast: podcast, preferences: own)
        #expect(settings.change == "podcastSettings")
        #expect(settings.text == "settings of Garden Weather (k3x9q2mz): refresh every 2h, auto-download on, keep 5, delete played after 7d, notify off")
        #expect(settings.json["podcast"] == .object(["id": .string("k3x9q2mz"), "title": .string("Garden Weather")]))
        #expect(settings.json["settings"] == PodcastSettingsViewData(own).json)
        let episode = Episode(id: "k3x9q2mz-1", podcastID: "k3x9q2mz", title: "Frost", published: Date(timeIntervalSince1970: 0), duration: nil)
        #expect(PodcastChangeViewData.kept("k3x9q2mz-1", episode: episode, kept: true).text == "kept: Frost (k3x9q2mz-1)")
        #expect(PodcastChangeViewData.kept("k3x9q2mz-1", episode: nil, kept: false).text == "no longer kept: k3x9q2mz-1")
        #expect(PodcastChangeViewData.kept("k3x9q2mz-1", episode: nil, kept: false).json["kept"] == .boolean(false))
        #expect(PodcastChangeViewData.settings(PodcastSettings(minimumFreeSpace: 3 << 30)).text.hasSuffix("minimum-free-space 3.0 GiB, continuous on"))
        #expect(PodcastChangeViewData.settings(PodcastSettings(continuous: false)).text.hasSuffix("continuous off"))
        // A podcast in a change: the four keys cli.md names, no settings in words.
        #expect(PodcastChangeViewData.subscribed(podcast).json["podcast"] == .object(["id": .string("k3x9q2mz"), "title": .string("Garden Weather"),
                                                                                     "author": .string("R. Fern"), "feedURL": .string("https://garden.example/feed.xml")]))
    }

    @Test func theListShowsOnlySettingsThatDifferAndGivesThemRoomLast() {
        let podcasts = [
            (Podcast(id: "k3x9q2mz", title: "Garden Weather", author: "R. Fern", feedURL: "https://garden.example/feed.xml"), own),
            (Podcast(id: "a1b2c3d4", title: "Almanac Morning", author: "The Almanac Team", feedURL: "https://almanac.example/morning.xml"), PodcastPreferences()),
        ]
        let previews = PodcastPreviewViewData.list(podcasts)
        #expect(Set(previews[0].fields.keys) == Set(PodcastPreviewViewData.fieldNames))
        #expect(previews.map(\.id) == ["a1b2c3d4", "k3x9q2mz"])
        let wide = Table.podcasts(previews).lines(width: 120).map(\.plain)
        // The feed is cut first to make room for them.
        #expect(wide == [
            "ID        Title            Author            Feed                            Refresh   Auto  Keep  Delete played  Notify",
            "a1b2c3d4  Almanac Morning  The Almanac Team  https://almanac.example/morni…",
            "k3x9q2mz  Garden Weather   R. Fern           https://garden.example/feed.x…  every 2h  on       5  after 7d       off",
        ])
        let narrow = Table.podcasts(previews).lines(width: 80).map(\.plain)
        #expect(narrow.allSatisfy { displayWidth($0) <= 80 }, "\(narrow)")
        #expect(narrow[0].hasPrefix("ID        Title") && narrow[0].contains("Refresh") && narrow[0].contains("Notify") && !narrow[0].contains("Feed"), "\(narrow)")
        // Nobody changed anything: the list is as it always was.
        let plain = Table.podcasts(PodcastPreviewViewData.list(podcasts.map { ($0.0, PodcastPreferences()) })).lines(width: 120).map(\.plain)
        #expect(plain[0] == "ID        Title            Author            Feed")
    }

    @Test(arguments: [("7d", 604_800.0), ("12h", 43_200), ("30m", 1_800), ("45s", 45), ("1h30m", 5_400), ("2 days", 172_800), ("90", 90), ("1.5h", 5_400)])
    func timesAreRead(text: String, seconds: Double) {
        #expect(parseCompactDuration(text) == seconds)
    }

    @Test func badTimesAreNot() {
        for text in ["", "h", "7x", "1h1h", "-5m", "5m-", "d7", "1h 30"] { #expect(parseCompactDuration(text) == nil, "\(text)") }
    }

    @Test(arguments: [(604_800.0, "7d"), (7_200, "2h"), (5_400, "1h30m"), (90_061, "1d1h1m1s"), (0, "0s"), (45.4, "45s")])
    func timesAreWrittenAsTheyAreRead(seconds: Double, text: String) {
        #expect(compactDuration(seconds) == text)
        #expect(parseCompactDuration(text) == seconds.rounded())
    }

    @Test(arguments: [("0", 0.0), ("512", 512), ("500MiB", 524_288_000), ("500M", 524_288_000), ("2GiB", 2_147_483_648), ("2 GB", 2e9),
                      ("1.5GiB", 1_610_612_736), ("1kb", 1_000), ("1TiB", 1_099_511_627_776), ("1PiB", 1_125_899_906_842_624)])
    func sizesAreRead(text: String, bytes: Double) {
        #expect(parseByteCount(text) == bytes)
    }

    @Test func badSizesAreNot() {
        for text in ["", "GiB", "-1GiB", "2 parsecs", "1e9"] { #expect(parseByteCount(text) == nil, "\(text)") }
    }
}
