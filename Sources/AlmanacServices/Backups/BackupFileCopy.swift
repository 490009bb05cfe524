import AlmanacCore
import AlmanacModels
import FoundationEssentials
import Glibc

/// Copies an open file's bytes into a new private file: a backup to be restored (so that what
/// is checked is what is restored, whatever happens to the backup meanwhile), or a file a
/// client passed (`ImportBackup`). Only regular files are read: a pipe, socket or device could
/// hold the daemon for ever, or never end.
enum BackupFileCopy {
    /// Copies the regular file open at `source` (from its start, with `pread`: its offset is
    /// shared with whoever passed it) into a new file at `destination`, mode 0600, synced;
    /// at most `limit` bytes. Throws `BackupError`; nothing is left at `destination` then.
    static func copy(from source: Int32, to destination: String, limit: UInt64, shownAs shown: String) throws {
        var status = stat()
        guard fstat(source, &status) == 0 else { throw BackupError(.failed, "Cannot read \(shown): \(lastError()).") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw BackupError(.unusable, "\(shown) is not a regular file (a pipe, socket, device or folder); a backup is a file.")
        }
        guard UInt64(max(0, status.st_size)) <= limit else {
            throw BackupError(.tooLarge, "\(shown) holds \(status.st_size) bytes, more than the \(limit) a library may (\(limit >> 30) GiB).")
        }
        let target = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard target >= 0 else { throw BackupError(.failed, "Cannot create \(destination): \(lastError()).") }
        defer { close(target) }
        do {
            try pump(from: source, to: target, limit: limit, shownAs: shown)
            guard fsync(target) == 0 else { throw BackupError(.failed, "Cannot write \(destination): \(lastError()).") }
        } catch {
            unlink(destination)
            throw error
        }
    }

    private static func pump(from source: Int32, to target: Int32, limit: UInt64, shownAs shown: String) throws {
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk)
        var offset: UInt64 = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, chunk, off_t(offset)) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw BackupError(.failed, "Cannot read \(shown): \(lastError()).") }
            guard count > 0 else { return }
            offset += UInt64(count)
            // A file that grows while it is read is not followed past the limit.
            guard offset <= limit else { throw BackupError(.tooLarge, "\(shown) grew past the \(limit) bytes a library may hold while it was read.") }
            var written = 0
            while written < count {
                let done = buffer.withUnsafeBytes { write(target, $0.baseAddress! + written, count - written) }
                if done < 0, errno == EINTR { continue }
                guard done > 0 else { throw BackupError(.failed, "Cannot write the copy of \(shown): \(lastError()).") }
                written += done
            }
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
