public import AlmanacWire
public import DBus

extension AlmanacClient {
    /// A property of `interface` at `path`, as `org.freedesktop.DBus.Properties.Get` gives it.
    public func property(_ name: MemberName, of interface: InterfaceName, at path: ObjectPath) async throws -> Value {
        try await connection.call(BusContract.serviceName, path: path, interface: .properties, method: MemberName("Get"),
                                  arguments: interface.rawValue, name.rawValue).arguments(Value.self)
    }

    /// A property of `document`'s document interface.
    public func property(_ name: MemberName, of document: DocumentName) async throws -> Value {
        try await property(name, of: BusContract.documentInterface, at: BusContract.documentPath(document))
    }
}
