public import AlmanacModels
import DBus

extension PodcastSettings: WireShaped {
    /// The podcasts document's settings (the `Settings` property, a `settings` change), in
    /// this order: `notify b`, `deleteWhenPlayed b`, `playedAt d`, `player s`,
    /// `minimumFreeSpace t`, `continuous b`, `metered s`, `backupsKept u`. A daemon from
    /// before backups sends no `backupsKept`: the default.
    public struct Wire: Codable {
        var notify, deleteWhenPlayed: Bool
        var playedAt: Double
        var player: String
        var minimumFreeSpace: UInt64
        var continuous: Bool
        var metered: MeteredUse
        var backupsKept: UInt32?
    }

    public var wire: Wire {
        Wire(notify: notify, deleteWhenPlayed: deleteWhenPlayed, playedAt: playedAt, player: player, minimumFreeSpace: minimumFreeSpace,
             continuous: continuous, metered: metered, backupsKept: UInt32(clamping: backupsKept))
    }

    /// A `backupsKept` out of its range is the default, as a settings file's is.
    public init(wire: Wire) {
        let kept = wire.backupsKept.map(Int.init).flatMap { Self.backupsKeptRange.contains($0) ? $0 : nil }
        self.init(notify: wire.notify, deleteWhenPlayed: wire.deleteWhenPlayed, playedAt: wire.playedAt, player: wire.player,
                  minimumFreeSpace: wire.minimumFreeSpace, continuous: wire.continuous, metered: wire.metered,
                  backupsKept: kept ?? Self.defaultBackupsKept)
    }
}
