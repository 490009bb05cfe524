import AlmanacCore
import AlmanacModels
import FoundationEssentials
import Glibc

/// The file operations of a download: the folder, the temporary file the bytes go to, and
/// the move to a final name that never replaces another file (`link(2)` fails rather than
/// overwrite; "Title (2).mp3" is tried next).
enum DownloadFolder {
    /// Creates `folder` (and its parents) for the user alone.
    static func prepare(_ folder: String) throws {
        if let why = PrivateFolder.create(folder) {
            throw DownloadError("Cannot create the download folder \(folder): \(why).")
        }
    }

    /// The size of the file at `path` (0 when there is none).
    static func size(of path: String) -> UInt64 {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return 0 }
        return UInt64(info.st_size)
    }

    /// Moves the complete temporary file to `name` in `folder`, or the first free
    /// alternative of it; returns the final path.
    static func finish(_ temporary: String, in folder: String, as name: String) throws -> String {
        for attempt in 1...1_000 {
            let candidate = folder + "/" + (attempt == 1 ? name : SafeFileName.alternative(name, attempt: attempt))
            if link(temporary, candidate) == 0 {
                unlink(temporary)
                return candidate
            }
            switch errno {
            case EEXIST:
                continue
            case EPERM, ENOTSUP, EOPNOTSUPP, EXDEV, EMLINK:
                // A file system without hard links (FAT on a player): check, then rename.
                if access(candidate, F_OK) == 0 { continue }
                guard rename(temporary, candidate) == 0 else { throw DownloadError("Cannot move the download to \(candidate): \(String(cString: strerror(errno))).") }
                return candidate
            default:
                throw DownloadError("Cannot move the download to \(candidate): \(String(cString: strerror(errno))).")
            }
        }
        throw DownloadError("There are 1,000 files named like \(name) in \(folder) already.")
    }

    static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw DownloadError("Cannot delete \(path): \(String(cString: strerror(errno))).")
        }
    }
}

/// A download failed; the message says where and why.
public struct DownloadError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
