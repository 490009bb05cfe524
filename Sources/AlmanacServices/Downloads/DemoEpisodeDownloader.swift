public import AlmanacCore
public import AlmanacModels
import FoundationEssentials
import Glibc

/// The offline demo's downloads: no network, but real files, written a slice at a time so
/// that progress shows (about three seconds a download).
public struct DemoEpisodeDownloader: EpisodeDownloading {
    /// The size of a demo episode's file.
    public static let size: UInt64 = 3 << 20

    public init() {}

    public func download(_ job: DownloadJob, progress: @escaping @Sendable (DownloadProgress) -> Void) async throws -> String {
        try DownloadFolder.prepare(job.folder)
        let temporary = job.folder + "/" + job.temporaryName
        var received = DownloadFolder.size(of: temporary)
        // What an earlier try left is kept and continued.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw DownloadError("Cannot write \(temporary): \(String(cString: strerror(errno))).")
        }
        defer { close(fd) }
        let slice = [UInt8](repeating: 0, count: 64 << 10)
        while received < Self.size {
            try await RealTime.sleep(for: .milliseconds(60))
            let count = Int(min(UInt64(slice.count), Self.size - received))
            guard write(fd, slice, count) == count else {
                throw DownloadError("Cannot write \(temporary): \(String(cString: strerror(errno))).")
            }
            received = min(Self.size, received + UInt64(slice.count))
            progress(DownloadProgress(received: received, total: Self.size, validator: "demo"))
        }
        return try DownloadFolder.finish(temporary, in: job.folder, as: SafeFileName.fileName(title: job.name, fallback: job.episodeID, extension: "mp3"))
    }

    public func discard(_ job: DownloadJob) {
        try? DownloadFolder.remove(job.folder + "/" + job.temporaryName)
    }

    public func delete(file: String) throws {
        try DownloadFolder.remove(file)
    }

    public func exists(file: String) -> Bool {
        FileManager.default.fileExists(atPath: file)
    }
}
