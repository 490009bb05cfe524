/// Why a backup could not be taken, found, imported or restored; the message says what to do.
/// Nothing changed when one is thrown.
public struct BackupError: Error, Sendable, CustomStringConvertible {
    /// The kinds of failure callers tell apart (the bus gives each its error name).
    public struct Code: Sendable, Hashable {
        private enum Kind: Sendable, Hashable { case noBackup, unusable, invalidName, failed, tooLarge }
        private let kind: Kind

        /// There is no backup of that name (or none at all, for `latest`).
        public static let noBackup = Code(kind: .noBackup)
        /// The file is not a library this daemon can restore: not SQLite, damaged, not
        /// Almanac's, written by a newer Almanac, a symbolic link, not a regular file.
        public static let unusable = Code(kind: .unusable)
        /// What was given is no backup's name, or names a file outside the backups folder.
        public static let invalidName = Code(kind: .invalidName)
        /// The disk refused (the folder cannot be written, the disk is full).
        public static let failed = Code(kind: .failed)
        /// A file passed to import is larger than a library is allowed to be.
        public static let tooLarge = Code(kind: .tooLarge)
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
