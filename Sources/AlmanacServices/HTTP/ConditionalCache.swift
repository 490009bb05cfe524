import FoundationEssentials
import AlmanacModels

/// What the last answer for each URL said about itself (`ETag`, `Last-Modified`) and, when
/// small, its body, so the next request can be conditional and a `304` can be answered from
/// here. Bounded: past `capacity` URLs the oldest entry goes, and no body over
/// `maximumKeptBody` is kept (at most 64 MiB in all).
final class ConditionalCache: Sendable {
    struct Entry: Sendable {
        let etag: String?
        let lastModified: String?
        /// The body, when it was small enough to keep.
        let body: Data?
    }

    /// The largest body kept for answering a `304`.
    static let maximumKeptBody = 256 * 1024

    private let entries: KeyedCache<URL, Entry>
    /// Where validators outlive the process (bodies are not kept there: a `304` then comes
    /// with an empty body, which the feed reader takes as "unchanged").
    private let archive: (any ValidatorArchive)?

    init(capacity: Int = 256, archive: (any ValidatorArchive)? = nil) {
        entries = KeyedCache(capacity: capacity)
        self.archive = archive
    }

    /// The entry for `url`, from memory, else from the archive; setting one without a
    /// validator removes it (nothing to ask with).
    subscript(url: URL) -> Entry? {
        get {
            if let entry = entries[url] { return entry }
            guard let kept = archive?.validators(for: url.absoluteString), kept.etag != nil || kept.lastModified != nil else { return nil }
            return Entry(etag: kept.etag, lastModified: kept.lastModified, body: nil)
        }
        set {
            if let archive, archive.validators(for: url.absoluteString).map({ ($0.etag, $0.lastModified) }) ?? (nil, nil) != (newValue?.etag, newValue?.lastModified) {
                archive.saveValidators(newValue?.etag, newValue?.lastModified, for: url.absoluteString)
            }
            entries[url] = newValue.flatMap { $0.etag != nil || $0.lastModified != nil ? $0 : nil }
        }
    }
}
