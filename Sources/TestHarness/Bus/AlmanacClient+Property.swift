public import AlmanacWire
public import DBus

extension AlmanacClient {
    /// A property of the daemon's object at `path`, as `org.freedesktop.DBus.Properties.Get`
    /// gives it, read as its definition's type.
    public func property<T>(_ definition: BusProperty<T>, at path: ObjectPath) async throws -> T {
        try await connection.property(definition, on: BusContract.serviceName, path: path)
    }

    /// A property of `document`'s object (its `Document1`'s, or its domain interface's).
    public func property<T>(_ definition: BusProperty<T>, of document: DocumentName) async throws -> T {
        try await property(definition, at: BusContract.documentPath(document))
    }
}
