public import AlmanacModels
/// Fetches an episode's audio into a folder: resumes what an earlier try left in the job's
/// temporary file, reports progress, and moves the complete file to a safe final name.
/// Cancelling the calling task stops the transfer (the temporary file stays, for a resume).
public protocol EpisodeDownloading: Sendable {
    /// Downloads `job.url` into `job.folder`; returns the final file's path.
    func download(_ job: DownloadJob, progress: @escaping @Sendable (DownloadProgress) -> Void) async throws -> String
    /// Deletes what `job` left behind (its temporary file).
    func discard(_ job: DownloadJob)
    /// Deletes a downloaded file (when its episode was played and the user asked for that).
    func delete(file: String) throws
    /// Whether a downloaded file is still there.
    func exists(file: String) -> Bool
}
