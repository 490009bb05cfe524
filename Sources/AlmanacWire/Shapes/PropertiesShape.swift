public import DBus

/// The shape of an object's properties (`Sync1`'s, `Download1`'s): one table, `properties`,
/// pairs each property's definition with the field that holds it, in the order introspection
/// lists them. From it come the server's table (`fields`), the `a{sv}` of `GetAll` and
/// `PropertiesChanged` (`encode(to:)`, keyed by the definitions' names, typed by their
/// types), and a client's reading of one (`init(from:)`), so each property is named once.
///
/// A client reads the properties it has heard so far: one not there keeps its default.
public protocol PropertiesShape: Codable, Sendable {
    /// Every field at its default (`""`, 0, `false`): what a client has heard of none.
    static var unheard: Self { get }
    /// Each property beside the field that holds it, in the order introspection lists them.
    static var properties: [ShapeProperty<Self>] { get }
}

extension PropertiesShape {
    /// The server's table: each property read from a shape.
    public static var fields: [PropertyField<Self>] { properties.map(\.field) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ShapeProperty<Self>.Key.self)
        for property in Self.properties {
            try property.encode(self, &container)
        }
    }

    public init(from decoder: any Decoder) throws {
        self = Self.unheard
        let container = try decoder.container(keyedBy: ShapeProperty<Self>.Key.self)
        for property in Self.properties {
            try property.decode(&self, container)
        }
    }
}
