import GRDB

/// The feed client's validators, one row per URL (migration v5).
extension StateStore: ValidatorArchive {
    public func validators(for url: String) -> (etag: String?, lastModified: String?)? {
        let row = try? read("the validators of a feed") { db in try Row.fetchOne(db, sql: "SELECT etag, lastModified FROM httpValidator WHERE url = ?", arguments: [url]) }
        guard let row else { return nil }
        return (Self.text(row, "etag"), Self.text(row, "lastModified"))
    }

    public func saveValidators(_ etag: String?, _ lastModified: String?, for url: String) {
        try? write("the validators of a feed") { db in
            if etag == nil && lastModified == nil {
                try db.execute(sql: "DELETE FROM httpValidator WHERE url = ?", arguments: [url])
            } else {
                try db.execute(sql: "INSERT OR REPLACE INTO httpValidator (url, etag, lastModified) VALUES (?, ?, ?)",
                               arguments: [url, etag, lastModified])
            }
        }
    }
}
