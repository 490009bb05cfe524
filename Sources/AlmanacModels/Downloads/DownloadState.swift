/// Where a download job is in its life.
public enum DownloadState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Waiting for a free slot.
    case queued
    case downloading
    /// The file is in place under its final name.
    case completed
    case failed
    case cancelled

    /// Whether the job has ended (and will be removed after a while).
    public var isFinished: Bool { self == .completed || self == .failed || self == .cancelled }
}
