import AlmanacModels
public import DBus

/// The fixed names of Almanac's bus contract (v1); see docs/bus-api.md.
public enum BusContract {
    /// `org.almanac.Almanac1`, the name the daemon owns.
    public static let serviceName: BusName = "org.almanac.Almanac1"
    /// `/org/almanac/Almanac1`: the root object, an ObjectManager.
    public static let rootPath: ObjectPath = "/org/almanac/Almanac1"
    /// `org.almanac.Almanac1`, the root object's interface.
    public static let rootInterface: InterfaceName = "org.almanac.Almanac1"
    /// `org.almanac.Document1`, on every document.
    public static let documentInterface: InterfaceName = "org.almanac.Document1"
    /// `org.almanac.View1`, on every view object.
    public static let viewInterface: InterfaceName = "org.almanac.View1"
    /// `org.almanac.Weather1`, on the weather document.
    public static let weatherInterface: InterfaceName = "org.almanac.Weather1"
    /// `org.almanac.Podcasts1`, on the podcasts document.
    public static let podcastsInterface: InterfaceName = "org.almanac.Podcasts1"

    /// `org.almanac.Download1`, on every download job.
    public static let downloadInterface: InterfaceName = "org.almanac.Download1"
    /// `/org/almanac/Almanac1/downloads`, below which the jobs are.
    public static let downloadsPath: ObjectPath = "/org/almanac/Almanac1/downloads"

    /// `org.almanac.Sync1`, on the sync object.
    public static let syncInterface: InterfaceName = "org.almanac.Sync1"
    /// `/org/almanac/Almanac1/sync`: the sync with a gpodder.net-compatible server.
    public static let syncPath: ObjectPath = "/org/almanac/Almanac1/sync"

    /// `org.almanac.Player1`, on the player object: Almanac steering media players.
    public static let playerInterface: InterfaceName = "org.almanac.Player1"
    /// `/org/almanac/Almanac1/player`: the sleep timer and chapter seeking.
    public static let playerPath: ObjectPath = "/org/almanac/Almanac1/player"

    /// The object path of download job `id`.
    public static func downloadPath(_ id: UInt64) -> ObjectPath {
        downloadsPath.appending(id)
    }

    /// The object path of a document.
    public static func documentPath(_ name: DocumentName) -> ObjectPath {
        switch name {
        case .weather: "/org/almanac/Almanac1/weather"
        case .podcasts: "/org/almanac/Almanac1/podcasts"
        }
    }

    // The error names the daemon uses where no standard one fits, as the wire's names: each
    // is written once, in `ClientErrorName` (AlmanacModels), where the errors name themselves.
    /// `org.almanac.Error.NoSuchView`: a path that is not a view of the document.
    public static let noSuchView = ErrorName(.noSuchView)
    /// `org.almanac.Error.UnknownLocation`: a place with no reading, or not saved.
    public static let unknownLocation = ErrorName(.unknownLocation)
    /// `org.almanac.Error.NotAFeed`: what was read is not a feed (or not OPML).
    public static let notAFeed = ErrorName(.notAFeed)
    /// `org.almanac.Error.FetchFailed`: a feed, transcript, directory or geocoder could not be read.
    public static let fetchFailed = ErrorName(.fetchFailed)
    /// `org.almanac.Error.SyncFailed`: the sync server could not be asked, or refused, or answered what the API does not allow.
    public static let syncFailed = ErrorName(.syncFailed)
    /// `org.almanac.Error.AuthenticationFailed`: the sync server refused the user name and password.
    public static let authenticationFailed = ErrorName(.authenticationFailed)
    /// `org.almanac.Error.NotLoggedIn`: `Sync()` with no account: log in first.
    public static let notLoggedIn = ErrorName(.notLoggedIn)
    /// `org.almanac.Error.AlreadyLoggedIn`: `Login` to another account while logged in: `Logout` first.
    public static let alreadyLoggedIn = ErrorName(.alreadyLoggedIn)
    /// `org.almanac.Error.NoPlayer`: no media player plays (or has open) an episode of the library.
    public static let noPlayer = ErrorName(.noPlayer)
    /// `org.almanac.Error.PlayerFailed`: the player refused what it was told, or did not answer in time.
    public static let playerFailed = ErrorName(.playerFailed)
    /// `org.almanac.Error.NoTranscript`: `GetTranscript` of an episode whose feed names no transcript Almanac reads.
    public static let noTranscript = ErrorName(.noTranscript)
    /// `org.almanac.Error.NoBackup`: `Restore` of a backup that is not there (or `latest` with none).
    public static let noBackup = ErrorName(.noBackup)
    /// `org.almanac.Error.UnusableBackup`: `Restore`/`ImportBackup` of a file that is no library
    /// this daemon can restore: not SQLite, damaged, not Almanac's, from a newer Almanac, a
    /// symbolic link, not a regular file.
    public static let unusableBackup = ErrorName(.unusableBackup)
    /// `org.almanac.Error.NotEnoughSpace`: `Backup`/`Restore`/`ImportBackup` refused before it
    /// began: too little free space in the backups folder's file system.
    public static let notEnoughSpace = ErrorName(.notEnoughSpace)
    /// `org.almanac.Error.SearchTooBroad`: a search (`ListEpisodes`' `search`, `SearchTranscripts`)
    /// that took more than its time budget.
    public static let searchTooBroad = ErrorName(.searchTooBroad)
}
