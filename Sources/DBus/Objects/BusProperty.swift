/// The one typed definition of a property: its interface, name, type and access.
///
/// The server's table entry (`Property(definition) { value }`), its introspection, its
/// `PropertiesChanged` entries (`definition.entry(value)`) and the client's reads
/// (`connection.property(definition, …)`, `values[definition]` of a `GetAll` or a
/// `PropertiesChanged`) all come from it, so a server and a client that disagree on the
/// type do not compile:
///
/// ```swift
/// static let revision = BusProperty<UInt64>("Revision", of: document)
/// Property(revision) { document.revision }                               // the server
/// let revision = try await bus.property(revision, on: name, path: path)   // the client: UInt64
/// ```
public struct BusProperty<T: BusValueConvertible>: Sendable {
    /// The interface the property belongs to.
    public let interface: InterfaceName
    /// The property's name.
    public let name: MemberName
    /// Whether clients may read it, or read and write it (`Property(_:get:set:)`).
    public let access: Property.Access

    /// A definition: read-only unless `access` says otherwise.
    public init(_ name: MemberName, of interface: InterfaceName, access: Property.Access = .read) {
        self.interface = interface
        self.name = name
        self.access = access
    }

    /// The property's D-Bus type.
    public var type: ValueType { T.busType }
    /// The property's signature, such as `as`.
    public var signature: String { T.busType.signature }

    /// The `(name, value)` entry that announces `value` in a `PropertiesChanged` (or lists it
    /// in a `GetAll`), its type the definition's.
    public func entry(_ value: T) -> (String, Value) { (name.rawValue, value.busValue) }
}

extension Dictionary where Key == String, Value == DBus.Value {
    /// The value of `property` in a `GetAll` answer or a `PropertiesChanged`'s changed values:
    /// `nil` when it is not there, or holds another type than the definition's.
    public subscript<T>(property: BusProperty<T>) -> T? {
        self[property.name.rawValue].flatMap(T.init(busValue:))
    }
}
