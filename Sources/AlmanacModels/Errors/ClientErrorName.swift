/// The name of an error a client may see: Almanac's own (`org.almanac.Error.<Name>`) where
/// no standard one fits, else a standard D-Bus one (`org.freedesktop.DBus.Error.<Name>`).
///
/// Every name is declared here and nowhere else (`BusNamesWrittenOnceTests`), each is a
/// valid D-Bus error name, and docs/bus-api.md's "Errors" table lists them all
/// (`ClientErrorNameTests`). A new error is a constant here, added to `all`, and a row there.
public struct ClientErrorName: Sendable, Hashable, CustomStringConvertible {
    /// The name as it goes on the wire.
    public let rawValue: String

    private init(almanac name: String) { rawValue = "org.almanac.Error." + name }
    private init(standard name: String) { rawValue = "org.freedesktop.DBus.Error." + name }

    public var description: String { rawValue }

    // MARK: Standard names

    /// Input refused: a wrong value, a value out of range, an unknown id.
    public static let invalidArgs = ClientErrorName(standard: "InvalidArgs")
    /// Not the caller's to change (someone else's view or download).
    public static let accessDenied = ClientErrorName(standard: "AccessDenied")
    /// Past a limit: views, downloads, an answer's size.
    public static let limitsExceeded = ClientErrorName(standard: "LimitsExceeded")
    /// The object (a download job) is gone.
    public static let unknownObject = ClientErrorName(standard: "UnknownObject")
    /// Not offered by this daemon, or not for this object.
    public static let notSupported = ClientErrorName(standard: "NotSupported")
    /// Failed for another reason, such as the disk refusing a write.
    public static let failed = ClientErrorName(standard: "Failed")

    // MARK: Almanac's names

    /// A path that is not a view of the document.
    public static let noSuchView = ClientErrorName(almanac: "NoSuchView")
    /// A place with no reading, or not saved.
    public static let unknownLocation = ClientErrorName(almanac: "UnknownLocation")
    /// What was read is not a feed (or not OPML).
    public static let notAFeed = ClientErrorName(almanac: "NotAFeed")
    /// A feed, a transcript, a directory or a geocoder could not be read.
    public static let fetchFailed = ClientErrorName(almanac: "FetchFailed")
    /// The sync server could not be asked, or refused, or answered what the API does not allow.
    public static let syncFailed = ClientErrorName(almanac: "SyncFailed")
    /// The sync server refused the user name and password.
    public static let authenticationFailed = ClientErrorName(almanac: "AuthenticationFailed")
    /// A sync with no account: log in first.
    public static let notLoggedIn = ClientErrorName(almanac: "NotLoggedIn")
    /// A login to another account while logged in: log out first.
    public static let alreadyLoggedIn = ClientErrorName(almanac: "AlreadyLoggedIn")
    /// No media player plays (or has open) an episode of the library: nothing to steer.
    public static let noPlayer = ClientErrorName(almanac: "NoPlayer")
    /// The player refused what it was told, or did not answer in time.
    public static let playerFailed = ClientErrorName(almanac: "PlayerFailed")
    /// An episode whose feed names no transcript Almanac reads.
    public static let noTranscript = ClientErrorName(almanac: "NoTranscript")
    /// A backup that is not there (or none at all, for `latest`).
    public static let noBackup = ClientErrorName(almanac: "NoBackup")
    /// A file that is no library this daemon can restore.
    public static let unusableBackup = ClientErrorName(almanac: "UnusableBackup")
    /// A backup or restore refused before it began: the backups folder's file system has too
    /// little free space for the copy and the room kept free beside it.
    public static let notEnoughSpace = ClientErrorName(almanac: "NotEnoughSpace")
    /// A search that took more than its time budget: search for rarer words.
    public static let searchTooBroad = ClientErrorName(almanac: "SearchTooBroad")

    /// Every name above.
    public static let all: [ClientErrorName] = [
        .invalidArgs, .accessDenied, .limitsExceeded, .unknownObject, .notSupported, .failed,
        .noSuchView, .unknownLocation, .notAFeed, .fetchFailed, .syncFailed, .authenticationFailed, .notLoggedIn, .alreadyLoggedIn,
        .noPlayer, .playerFailed, .noTranscript, .noBackup, .unusableBackup, .notEnoughSpace, .searchTooBroad,
    ]
}
