public import AlmanacCore
public import AlmanacModels
import Glibc

/// The free space of the disk holding a folder, from `statvfs(3)`: the blocks an
/// unprivileged user may still write (`f_bavail`), and where the disk is mounted (found by
/// walking up the folder's parents while they are on the same device).
public struct StatvfsDiskSpace: DiskSpace {
    public init() {}

    public func freeSpace(at path: String) throws -> FreeSpace {
        let existing = Self.nearestExisting(path)
        var info = statvfs()
        guard statvfs(existing, &info) == 0 else {
            throw DownloadError("Cannot read the free space of \(existing): \(String(cString: strerror(errno))).")
        }
        let (available, overflow) = UInt64(info.f_bavail).multipliedReportingOverflow(by: UInt64(info.f_frsize))
        return FreeSpace(available: overflow ? .max : available, mountPoint: Self.mountPoint(of: existing))
    }

    /// `path`, or its nearest parent that exists.
    static func nearestExisting(_ path: String) -> String {
        var current = path.isEmpty ? "/" : path
        while current != "/", access(current, F_OK) != 0 {
            current = parent(of: current)
        }
        return current
    }

    /// The highest folder above `path` on the same device: its mount point.
    static func mountPoint(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return path }
        let device = info.st_dev
        var current = path
        while current != "/" {
            let up = parent(of: current)
            guard stat(up, &info) == 0, info.st_dev == device else { break }
            current = up
        }
        return current
    }

    private static func parent(of path: String) -> String {
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "/" }
        let up = String(trimmed[..<slash])
        return up.isEmpty ? "/" : up
    }
}
