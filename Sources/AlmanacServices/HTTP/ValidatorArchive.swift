/// Where an HTTP client keeps the validators (`ETag`, `Last-Modified`) of the answers it got,
/// so that after a restart its first requests are conditional too: the daemon gives its feed
/// client the state file, so 200 unchanged feeds cost 200 `304`s, not 200 bodies.
public protocol ValidatorArchive: Sendable {
    /// The validators kept for `url`.
    func validators(for url: String) -> (etag: String?, lastModified: String?)?
    /// Keeps (or, both `nil`, forgets) the validators of `url`. Best effort: a write the disk
    /// refuses costs only a full download next time.
    func saveValidators(_ etag: String?, _ lastModified: String?, for url: String)
}
