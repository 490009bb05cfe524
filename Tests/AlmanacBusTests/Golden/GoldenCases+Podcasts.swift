@testable import AlmanacWire
import AlmanacModels
import DBus
import Foundation

/// The podcasts document's values: its state (whole, empty, one podcast's slice), every
/// change kind, the view updates and list pages the bus layer makes, the settings, a
/// view's options and the queue's edits.
extension GoldenCases {
    typealias PodcastsUpdate = ViewUpdate<PodcastsState, PodcastsChange>

    static let podcast = Podcast(id: "p", title: "Kaffee ☕ Podcast", author: "Zoë", feedURL: "https://example.org/feed.xml")
    /// A feed behind HTTP Basic authentication: its password never leaves the daemon.
    static let lockedPodcast = Podcast(id: "q", title: "Members", author: "", feedURL: "https://me:secret@example.org/members")
    static let toldLockedPodcast = Podcast(id: "q", title: "Members", author: "", feedURL: "https://me@example.org/members")

    static let episode = Episode(id: "p-1", podcastID: "p", title: "Folge 1: Über alles", published: second, duration: 3_661.5, isNew: true,
                                 played: false, position: 12.5, audioURL: "https://example.org/1.mp3", file: "/home/zoë/1.mp3", kept: true)
    static let bareEpisode = Episode(id: "q-1", podcastID: "q", title: "", published: date(0), duration: nil, isNew: false, played: true)

    static let preferences: PodcastPreferences = {
        var preferences = PodcastPreferences(refreshInterval: 3_600, autoDownload: true, keep: 5, deletePlayedAfter: 86_400, notify: true,
                                             skipIntro: 30, skipOutro: 15.5, speed: 1.5)
        preferences.autoQueue = true
        preferences.include = "Folge"
        preferences.exclude = "Trailer|Bonus"
        preferences.downloadKinds = [.full, .bonus]
        return preferences
    }()

    static let settings = PodcastSettings(notify: true, deleteWhenPlayed: true, playedAt: 0.9, player: "mpv --no-video",
                                          minimumFreeSpace: 5 << 30, continuous: false, metered: .allow)
    static let queue = [QueuedEpisode(episodeID: "p-1", podcastID: "p"), QueuedEpisode(episodeID: "q-1", podcastID: "q")]

    /// 52 episodes, two more than the state carries, so the state's newest 50 show.
    static let manyEpisodes: [Episode] = [episode, bareEpisode] + (2..<52).map { index in
        Episode(id: "p-\(index)", podcastID: "p", title: "Folge \(index)", published: second - Double(index) * 3_600, duration: Double(index),
                isNew: index.isMultiple(of: 2), played: index.isMultiple(of: 3), position: Double(index) / 2)
    }

    static let podcastsState = PodcastsState(podcasts: ["p": podcast, "q": lockedPodcast], episodes: Dictionary(uniqueKeysWithValues: manyEpisodes.map { ($0.id, $0) }),
                                             episodeCount: 120, settings: settings, preferences: ["p": preferences], queue: queue)

    /// The state as a client reads it back: the newest 50 episodes, no password.
    static let podcastsStateTold: PodcastsState = {
        var told = podcastsState
        told.podcasts["q"] = toldLockedPodcast
        let newest = manyEpisodes.sorted { ($0.published, $0.id) > ($1.published, $1.id) }.prefix(PodcastsCodec.episodesInState)
        told.episodes = Dictionary(uniqueKeysWithValues: newest.map { ($0.id, $0) })
        return told
    }()

    static let podcastsChanges: [(String, PodcastsChange)] = [
        ("subscribed", .subscribed(podcast)), ("unsubscribed", .unsubscribed(podcastID: "p")), ("renamed", .renamed(podcast)),
        ("newEpisodes", .newEpisodes(podcastID: "p", [episode, bareEpisode])), ("newEpisodes-none", .newEpisodes(podcastID: "p", [])),
        ("playState", .playState(episodeID: "p-1", podcastID: "p", played: true, position: 30.5)),
        ("failed", .failed(podcastID: "p", message: "HTTP 404: nicht gefunden")),
        ("downloaded", .downloaded(episodeID: "p-1", podcastID: "p", file: "/home/zoë/1.mp3")), ("downloaded-removed", .downloaded(episodeID: "p-1", podcastID: "p", file: nil)),
        ("settings", .settings(settings)), ("podcastSettings", .podcastSettings(podcastID: "p", preferences)),
        ("podcastSettings-default", .podcastSettings(podcastID: "p", PodcastPreferences())), ("kept", .kept(episodeID: "p-1", podcastID: "p", kept: false)),
        ("allPlayed", .allPlayed(podcastID: "p", count: 12)), ("allPlayed-everything", .allPlayed(podcastID: nil, count: 0)),
        ("olderEpisodes", .olderEpisodes(podcastID: "p", count: 40)), ("queue", .queue(queue)), ("queue-empty", .queue([])),
    ]

    static let queueEdits: [(String, QueueSubmission)] = [
        ("add", .add(["p-1", "q-1"], next: true)), ("add-last", .add(["p-1"], next: false)), ("remove", .remove(["q-1"])),
        ("move", .move("p-1", to: 2)), ("clear", .clear),
    ]

    static var podcasts: [GoldenCase] {
        let state = podcastsState, told = podcastsStateTold
        let slice = PodcastsState(podcasts: ["p": podcast], episodes: told.episodes.filter { $0.value.podcastID == "p" }, episodeCount: 51, settings: settings,
                                  preferences: ["p": preferences], queue: queue)
        let snapshot = (try? PodcastsCodec.snapshot(state, for: PodcastsViewOptions(podcast: "p"))) ?? [:]
        return [
            GoldenCase("state", fields: fields(state)) { try WireCoding.decode(PodcastsState.self, fromFields: $0) == told },
            GoldenCase("state-empty", fields: fields(PodcastsState())) { try WireCoding.decode(PodcastsState.self, fromFields: $0) == PodcastsState() },
            GoldenCase("state-p", fields: snapshot) { try WireCoding.decode(PodcastsState.self, fromFields: $0) == slice },
            GoldenCase("updated-resync", fields: resync(snapshot)) {
                try WireCoding.decode(PodcastsUpdate.self, fromFields: $0) == .resynchronised(slice)
            },
            GoldenCase("updated-tooLarge", fields: tooLarge(fields(PodcastsChange.newEpisodes(podcastID: "p", [episode])))) {
                try WireCoding.decode(PodcastsUpdate.self, fromFields: $0) == .tooLarge(was: "newEpisodes")
            },
            GoldenCase("settings", value: value(settings)) { try WireCoding.decode(PodcastSettings.self, fromFields: try $0.arguments([String: Value].self)) == settings },
            GoldenCase("preferences", value: value(preferences)) {
                try WireCoding.decode(PodcastPreferences.self, fromFields: try $0.arguments([String: Value].self)) == preferences
            },
            GoldenCase("preferences-default", value: value(PodcastPreferences())) {
                try WireCoding.decode(PodcastPreferences.self, fromFields: try $0.arguments([String: Value].self)) == PodcastPreferences()
            },
            // The `Subscriptions` property, as PodcastsAdapter.subscriptions builds it and AlmanacClient.subscriptionsWithSettings reads it.
            GoldenCase("subscriptions", items: list([Subscription(podcast, preferences: preferences), Subscription(lockedPodcast, preferences: PodcastPreferences())])) { items in
                let read = try WireCoding.decode([Subscription].self, from: items)
                return read.map(\.podcast) == [podcast, toldLockedPodcast] && read.map(\.preferences) == [preferences, PodcastPreferences()]
            },
            GoldenCase("viewOptions", fields: fields(PodcastsViewOptions(podcast: "p"))) { try PodcastsCodec.viewOptions($0) == PodcastsViewOptions(podcast: "p") },
            GoldenCase("viewOptions-all", fields: fields(PodcastsViewOptions(podcast: nil))) { try PodcastsCodec.viewOptions($0) == PodcastsViewOptions(podcast: nil) },
        ] + listUpdates + podcastsChanges.map { name, change in
            GoldenCase("change-\(name)", fields: fields(change)) {
                try WireCoding.decode(PodcastsChange.self, fromFields: $0) == change && WireCoding.decode(PodcastsUpdate.self, fromFields: $0) == .changed(change)
            }
        } + queueEdits.map { name, edit in
            GoldenCase("queueEdit-\(name)", fields: fields(edit)) {
                try PodcastsCodec.submission($0) == .queue(edit) && WireCoding.decode(QueueSubmission.self, fromFields: $0) == edit
            }
        }
    }

    /// A view's list paging (`ListStep`): each step, read back as the step it was.
    static var listUpdates: [GoldenCase] {
        let items = [episode, bareEpisode].map { value($0) }
        return [
            GoldenCase("list-loading", fields: fields(PagingEvent<Value>.loading(refresh: true))) {
                guard case .loading(true)? = try? WireCoding.decode(PagingEvent<Value>.self, fromFields: $0) else { return false }
                return true
            },
            GoldenCase("list-page", fields: fields(PagingEvent<Value>.loaded(refresh: false, items: items, hasMore: true))) {
                guard case .loaded(false, let read, true)? = try? WireCoding.decode(PagingEvent<Value>.self, fromFields: $0) else { return false }
                return try read.map { try WireCoding.decode(Episode.self, from: $0) } == [episode, bareEpisode]
            },
            GoldenCase("list-page-last", fields: fields(PagingEvent<Value>.loaded(refresh: true, items: [], hasMore: false))) {
                guard case .loaded(true, let read, false)? = try? WireCoding.decode(PagingEvent<Value>.self, fromFields: $0) else { return false }
                return read.isEmpty
            },
            GoldenCase("list-loadFailed", fields: fields(PagingEvent<Value>.failed(refresh: false, message: "Die Bibliothek ist gesperrt."))) {
                guard case .failed(false, let message)? = try? WireCoding.decode(PagingEvent<Value>.self, fromFields: $0) else { return false }
                return message == "Die Bibliothek ist gesperrt."
            },
        ]
    }
}
