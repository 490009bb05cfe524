import AlmanacCore
import AlmanacWire
import AlmanacModels
import DBus
import Foundation
import TestHarness
import Testing

/// A podcast's own settings, kept episodes and the new change kinds as `a{sv}` and back
/// (docs/bus-api.md): keys and types, and strict reading of what a client sends.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PodcastSettingsCodecTests {
    let own = PodcastPreferences(refreshInterval: 7_200, autoDownload: true, keep: 5, deletePlayedAfter: 604_800, notify: false)

    @Test func settingsHaveDocumentedKeysAndRoundTrip() throws {
        let encoded = try WireCoding.value(own)
        #expect(try WireCoding.fields(own) == [
            "refreshInterval": .double(7_200), "autoDownload": .boolean(true), "keep": .uint32(5), "deletePlayedAfter": .double(604_800), "notify": .string("off"),
            "autoQueue": .boolean(false),
            "skipIntro": .double(0), "skipOutro": .double(0), "speed": .double(0),
            "include": .string(""), "exclude": .string(""), "episodeTypes": .string("full"),
        ])
        let player = PodcastPreferences(skipIntro: 45, skipOutro: 30, speed: 1.5)
        #expect(try WireCoding.decode(PodcastPreferences.self, from: WireCoding.value(player)) == player)
        #expect(try WireCoding.decode(PodcastPreferences.self, from: encoded) == own)
        var filtered = own
        (filtered.include, filtered.exclude, filtered.downloadKinds) = ("^news", "rerun", [.bonus, .full])
        #expect(try WireCoding.fields(filtered)["episodeTypes"] == .string("full,bonus"))
        #expect(try WireCoding.decode(PodcastPreferences.self, from: WireCoding.value(filtered)) == filtered)
        #expect(try WireCoding.fields(PodcastPreferences()) == [
            "refreshInterval": .double(0), "autoDownload": .boolean(false), "keep": .uint32(0), "deletePlayedAfter": .double(0), "notify": .string("default"),
            "autoQueue": .boolean(false),
            "skipIntro": .double(0), "skipOutro": .double(0), "speed": .double(0),
            "include": .string(""), "exclude": .string(""), "episodeTypes": .string("full"),
        ])
        // Settings are sent whole: none at all is no settings, and says so.
        #expect(throws: DecodingError.self) { try WireCoding.decode(PodcastPreferences.self, fromFields: [:]) }
    }

    @Test func theStateCarriesEachPodcastsSettingsAndEachEpisodesKeptMark() throws {
        let podcast = Podcast(id: "p", title: "Show", author: "A", feedURL: "demo:p")
        let episode = Episode(id: "e1", podcastID: "p", title: "One", published: Date(timeIntervalSince1970: 1_800_000_000), duration: 61, kept: true)
        let state = PodcastsState(podcasts: ["p": podcast, "q": Podcast(id: "q", title: "Q", author: "", feedURL: "demo:q")], episodes: ["e1": episode],
                                  settings: PodcastSettings(minimumFreeSpace: 5 << 30), preferences: ["p": own])
        #expect(try WireCoding.decode(PodcastsState.self, fromFields: WireCoding.fields(state)) == state)
        #expect(try WireCoding.fields(episode)["kept"] == .boolean(true))
        #expect(try WireCoding.fields(state.settings)["minimumFreeSpace"] == .uint64(5 << 30))
    }

    @Test func theNewChangesHaveTheirKindsAndReachTheirPodcastsViews() throws {
        let settings = PodcastsChange.podcastSettings(podcastID: "p", own)
        #expect(try WireCoding.fields(settings)["kind"] == .string("podcastSettings") && WireCoding.fields(settings)["podcast"] == .string("p"))
        let kept = PodcastsChange.kept(episodeID: "e1", podcastID: "p", kept: true)
        #expect(try WireCoding.fields(kept) == ["kind": .string("kept"), "episode": .string("e1"), "podcast": .string("p"), "kept": .boolean(true)])
        #expect(try PodcastsCodec.slice(kept, for: PodcastsViewOptions(podcast: "p")) != nil)
        #expect(try PodcastsCodec.slice(settings, for: PodcastsViewOptions(podcast: "q")) == nil)
    }

    @Test func whatAClientSendsIsReadStrictly() throws {
        let submission = try PodcastsCodec.preferencesSubmission(["refreshInterval": .uint32(600), "keep": .int32(3), "notify": .boolean(true),
                                                                  "autoDownload": .boolean(false), "deletePlayedAfter": .double(86_400)])
        #expect(submission == PreferencesSubmission(refreshInterval: 600, autoDownload: false, keep: 3, deletePlayedAfter: 86_400, notify: .on))
        #expect(try PodcastsCodec.preferencesSubmission(["notify": .string("default")]).notify == .default)
        func refusal(_ values: [String: Value]) throws -> String {
            try #require(throws: BusError.self) { _ = try PodcastsCodec.preferencesSubmission(values) }.message
        }
        #expect(try refusal([:]) == "Name at least one podcast setting: refreshInterval, autoDownload, keep, deletePlayedAfter, notify, autoQueue, skipIntro, skipOutro, speed, include, exclude, episodeTypes.")
        #expect(try refusal(["keep": .string("5")]) == "'keep' must be a number (d, i, u, x or t), not 's'.")
        #expect(try refusal(["notify": .string("loud")]).hasPrefix("'notify' is true or false, or one of the strings \"on\", \"off\", \"default\""))
        #expect(try refusal(["notify": .int32(1)]) == "'notify' must be a boolean (b) or a string (s), not 'i'.")
        #expect(try refusal(["autoDownload": .string("on")]) == "'autoDownload' must be a boolean (b), not 's'.")

        #expect(try PodcastsCodec.submission(["episode": .string("e1"), "kept": .boolean(true)]) == .kept(episode: "e1", kept: true))
        #expect(throws: BusError.self) { _ = try PodcastsCodec.submission(["episode": .string("e1"), "kept": .boolean(true), "played": .boolean(true)]) }
        #expect(throws: BusError.self) { _ = try PodcastsCodec.submission(["kept": .boolean(true)]) }
        #expect(try PodcastsCodec.submission(["minimumFreeSpace": .uint64(1 << 30)]) == .settings(SettingsSubmission(minimumFreeSpace: Double(1 << 30))))
    }
}
