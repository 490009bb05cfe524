public import AlmanacCore
public import AlmanacModels
public import FoundationEssentials
import Glibc

/// The sync password in a file only the user can read (mode 0600), `sync-password` in the
/// state folder: where it goes when no Secret Service is on the session bus. Written to a
/// new file created 0600 and renamed into place, so it is never readable by others, not even
/// half written. Holds one account's password, with the server and user it belongs to.
public struct FileSyncSecrets: SyncSecrets {
    public let place = "file"
    /// The file's path.
    public let path: String

    public init(folder: URL) {
        path = folder.appendingPathComponent("sync-password").path
    }

    private struct Contents: Codable {
        var server: String
        var user: String
        var password: String
    }

    public func store(_ password: String, for account: SyncAccount) async throws {
        let data: Data
        do {
            data = try JSONEncoder().encode(Contents(server: account.server, user: account.user, password: password))
        } catch {
            throw SyncError(.secrets, "The password could not be written: \(error).")
        }
        let temporary = path + ".new-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SyncError(.secrets, "The password file \(temporary) could not be created: \(String(cString: strerror(errno))).") }
        let written = data.withUnsafeBytes { bytes in write(fd, bytes.baseAddress, bytes.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == data.count, synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SyncError(.secrets, "The password file \(path) could not be written: \(reason).")
        }
    }

    public func password(for account: SyncAccount) async throws -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        // Someone widened its mode: narrow it again before reading.
        if status.st_mode & 0o077 != 0 { chmod(path, 0o600) }
        guard let data = FileManager.default.contents(atPath: path), let contents = try? JSONDecoder().decode(Contents.self, from: data),
              contents.server == account.server, contents.user == account.user else { return nil }
        return contents.password
    }

    public func forget(_ account: SyncAccount) async {
        unlink(path)
    }
}
