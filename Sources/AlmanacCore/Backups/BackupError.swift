public import AlmanacModels

/// Why a backup could not be taken, found, imported or restored; the message says what to do.
/// Nothing changed when one is thrown.
public typealias BackupError = CodedError<BackupCode>

/// The kinds of failure callers tell apart, and what a client sees:
/// - `noBackup`: there is no backup of that name, or none at all for `latest` (`NoBackup`).
/// - `unusable`: the file is not a library this daemon can restore: not SQLite, damaged, not
///   Almanac's, written by a newer Almanac, a symbolic link, not a regular file (`UnusableBackup`).
/// - `invalidName`: what was given is no backup's name, or names a file outside the backups
///   folder (`InvalidArgs`).
/// - `failed`: the disk refused, the folder cannot be written or the disk is full (`Failed`).
/// - `tooLarge`: a file passed to import is larger than a library is allowed to be (`LimitsExceeded`).
/// - `noSpace`: the backups folder's file system has too little free space for the copy and the
///   room kept free beside it; refused before anything was written (`NotEnoughSpace`).
public enum BackupCode: String, ErrorCode, CaseIterable {
    case noBackup, unusable, invalidName, failed, tooLarge, noSpace

    public static let defaultErrorName = ClientErrorName.failed
    public static let errorNames: [BackupCode: ClientErrorName] = [
        .noBackup: .noBackup, .unusable: .unusableBackup, .invalidName: .invalidArgs, .tooLarge: .limitsExceeded,
        .noSpace: .notEnoughSpace,
    ]
}
