/// A sync that could not be done, with a message a person can act on. Whatever the code,
/// nothing local changed for the part that failed and the queue is kept.
public typealias SyncError = CodedError<SyncCode>

/// What kind of sync failure; a client sees `SyncFailed`, but for those named otherwise:
/// - `notLoggedIn`: no account; `almanac sync login` first (`NotLoggedIn`).
/// - `loggedIn`: logged in to another account already; `almanac sync logout` first (`AlreadyLoggedIn`).
/// - `refused`: the server refused the user name and password, HTTP 401 (`AuthenticationFailed`).
/// - `notASyncServer`: the server does not answer as a gpodder.net or Nextcloud gPodder Sync server.
/// - `unreachable`: the server could not be reached (offline, refused connection, timeout).
/// - `httpStatus`: the server answered with an HTTP error.
/// - `malformed`: the answer was not the JSON the API describes.
/// - `tooLarge`: the answer was larger than Almanac reads.
/// - `clock`: the server's clock and this computer's are too far apart for newest-wins.
/// - `storage`: the state file refused a write.
/// - `secrets`: the password could not be kept or read (Secret Service, file).
/// - `invalid`: what was given is not usable, such as a server that is no URL or a device ID
///   with spaces (`InvalidArgs`).
/// - `stalled`: a part of almanacd did not do its share in time (the sync's hang guard):
///   nothing was sent.
public enum SyncCode: String, ErrorCode, CaseIterable {
    case notLoggedIn, loggedIn, refused, notASyncServer, unreachable, httpStatus, malformed, tooLarge, clock, storage, secrets, invalid, stalled

    public static let defaultErrorName = ClientErrorName.syncFailed
    public static let errorNames: [SyncCode: ClientErrorName] = [
        .invalid: .invalidArgs, .notLoggedIn: .notLoggedIn, .loggedIn: .alreadyLoggedIn, .refused: .authenticationFailed,
    ]
}
