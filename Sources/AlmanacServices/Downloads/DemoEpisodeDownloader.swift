public import AlmanacCore
import Foundation

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
        if !FileManager.default.fileExists(atPath: temporary) { _ = FileManager.default.createFile(atPath: temporary, contents: nil) }
        guard let handle = FileHandle(forWritingAtPath: temporary) else {
            throw DownloadError("Cannot write \(temporary).")
        }
        defer { try? handle.close() }
        try handle.seekToEnd()
        let slice = Data(repeating: 0, count: 64 << 10)
        while received < Self.size {
            try await Task.sleep(for: .milliseconds(60))
            try handle.write(contentsOf: slice.prefix(Int(min(UInt64(slice.count), Self.size - received))))
            received = min(Self.size, received + UInt64(slice.count))
            progress(DownloadProgress(received: received, total: Self.size, validator: "demo"))
        }
        try handle.close()
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
