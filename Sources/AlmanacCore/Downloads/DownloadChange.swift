public import AlmanacModels
/// One change to the downloads: a job appeared, moved on, or was removed after it ended.
public enum DownloadChange: Sendable, Hashable {
    case added(DownloadJob)
    case updated(DownloadJob)
    case removed(DownloadJob)
}
