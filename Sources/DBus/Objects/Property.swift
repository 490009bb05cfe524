/// A property of an exported interface, read (and perhaps written) through
/// `org.freedesktop.DBus.Properties`. Getters and setters run on the I/O thread and must
/// not block.
public struct Property: Sendable {
    /// Whether clients may read, write or both.
    public enum Access: String, Sendable {
        case read, write, readwrite
    }

    public let name: MemberName
    public let type: ValueType
    public let access: Access
    /// Whether changes are announced with `PropertiesChanged` (introspection says so).
    public let emitsChange: Bool
    let get: (@Sendable () throws -> Value)?
    let set: (@Sendable (Value) throws -> Void)?

    /// A read-only property.
    public init(_ name: String, _ type: ValueType, emitsChange: Bool = true, get: @escaping @Sendable () throws -> Value) throws {
        try self.init(name, type, access: .read, emitsChange: emitsChange, get: get, set: nil)
    }

    /// A read-write property; `set` receives a value already checked to be of `type`.
    public init(
        _ name: String, _ type: ValueType, emitsChange: Bool = true,
        get: @escaping @Sendable () throws -> Value, set: @escaping @Sendable (Value) throws -> Void
    ) throws {
        try self.init(name, type, access: .readwrite, emitsChange: emitsChange, get: get, set: set)
    }

    private init(
        _ name: String, _ type: ValueType, access: Access, emitsChange: Bool,
        get: (@Sendable () throws -> Value)?, set: (@Sendable (Value) throws -> Void)?
    ) throws {
        _ = try Signature(type.signature)
        self.init(checked: try MemberName(name), type, access: access, emitsChange: emitsChange, get: get, set: set)
    }

    /// A property whose name and type are already valid (a typed definition's).
    init(
        checked name: MemberName, _ type: ValueType, access: Access, emitsChange: Bool,
        get: (@Sendable () throws -> Value)?, set: (@Sendable (Value) throws -> Void)?
    ) {
        self.name = name
        self.type = type
        self.access = access
        self.emitsChange = emitsChange
        self.get = get
        self.set = set
    }
}
