/// Which dialect of the gpodder.net API a sync server speaks.
public enum SyncFlavour: String, Sendable, Hashable, CaseIterable, Codable {
    /// gpodder.net API v2, as gpodder.net, mygpo and opodsync serve it: devices, a session
    /// cookie, subscriptions per device (shared by synchronized devices), `/api/2/…`.
    case gpodder
    /// The Nextcloud app "gPodder Sync": one library per user, no devices,
    /// `/index.php/apps/gpoddersync/…`; it keeps only `play` actions.
    case nextcloud
}
