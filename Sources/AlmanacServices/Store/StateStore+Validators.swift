/// The feed client's validators, one row per URL (migration v5).
extension StateStore: ValidatorArchive {
    public func validators(for url: String) -> (etag: String?, lastModified: String?)? {
        let row = try? read("the validators of a feed") { db in try db.row("SELECT etag, lastModified FROM httpValidator WHERE url = ?", [url]) }
        guard let row else { return nil }
        return (Self.text(row, "etag"), Self.text(row, "lastModified"))
    }

    public func saveValidators(_ etag: String?, _ lastModified: String?, for url: String) {
        try? write("the validators of a feed") { db in
            if etag == nil && lastModified == nil {
                try db.execute("DELETE FROM httpValidator WHERE url = ?", [url])
            } else {
                try db.execute("INSERT OR REPLACE INTO httpValidator (url, etag, lastModified) VALUES (?, ?, ?)",
                               [url, etag, lastModified])
            }
        }
    }
}
