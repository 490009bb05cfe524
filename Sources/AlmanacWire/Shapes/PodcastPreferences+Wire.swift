public import AlmanacModels
import DBus

extension PodcastPreferences: WireShaped {
    /// A podcast's own settings (`GetPodcastSettings`), every one always there: a setting
    /// left to the global one or to none is its zero (docs/bus-api.md): `refreshInterval d`
    /// (seconds; 0: the server's cadence), `autoDownload b`, `keep u` (0: every download),
    /// `deletePlayedAfter d` (seconds after playing; 0: never), `notify s` (`default`, `on`,
    /// `off`), `autoQueue b`, `skipIntro d`, `skipOutro d` (seconds; 0: none), `speed d` (0:
    /// the player's own), `include s` and `exclude s` (title patterns; "": none),
    /// `episodeTypes s` ("full,bonus").
    public struct Wire: Codable {
        var refreshInterval: Double
        var autoDownload: Bool
        var keep: UInt32
        var deletePlayedAfter: Double
        var notify: PreferencesSubmission.Notify
        var autoQueue: Bool
        var skipIntro, skipOutro, speed: Double
        var include, exclude: String
        var episodeTypes: String
    }

    public var wire: Wire {
        Wire(refreshInterval: refreshInterval ?? 0, autoDownload: autoDownload, keep: UInt32(clamping: keep ?? 0), deletePlayedAfter: deletePlayedAfter ?? 0,
             notify: PreferencesSubmission.Notify(notify), autoQueue: autoQueue, skipIntro: skipIntro ?? 0, skipOutro: skipOutro ?? 0,
             speed: speed ?? 0, include: include ?? "", exclude: exclude ?? "", episodeTypes: EpisodeKind.text(downloadKinds))
    }

    /// A zero (or less) is the setting left alone; episode types this client does not know
    /// leave the default.
    public init(wire: Wire) {
        func set(_ value: Double) -> Double? { value > 0 ? value : nil }
        self.init(refreshInterval: set(wire.refreshInterval), autoDownload: wire.autoDownload,
                  keep: wire.keep >= 1 ? Int(min(wire.keep, UInt32(Int32.max))) : nil, deletePlayedAfter: set(wire.deletePlayedAfter),
                  notify: wire.notify.value, skipIntro: set(wire.skipIntro), skipOutro: set(wire.skipOutro), speed: set(wire.speed))
        autoQueue = wire.autoQueue
        include = wire.include.isEmpty ? nil : wire.include
        exclude = wire.exclude.isEmpty ? nil : wire.exclude
        if let kinds = try? EpisodeKind.list(wire.episodeTypes) { downloadKinds = kinds }
    }
}
