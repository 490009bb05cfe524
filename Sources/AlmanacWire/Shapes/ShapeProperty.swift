public import DBus

/// One row of a `PropertiesShape`'s table: a property's typed definition and the field of
/// the shape that holds it.
public struct ShapeProperty<Shape>: Sendable {
    /// A property's name as a coding key.
    struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// The server's table entry, read from a shape.
    public let field: PropertyField<Shape>
    let encode: @Sendable (Shape, inout KeyedEncodingContainer<Key>) throws -> Void
    let decode: @Sendable (inout Shape, KeyedDecodingContainer<Key>) throws -> Void

    /// The property `definition`, held in `path`.
    public init<T: BusValueConvertible & Codable>(_ definition: BusProperty<T>, _ path: any WritableKeyPath<Shape, T> & Sendable) {
        let key = Key(stringValue: definition.name.rawValue)
        field = PropertyField(definition) { $0[keyPath: path] }
        encode = { shape, container in try container.encode(shape[keyPath: path], forKey: key) }
        decode = { shape, container in
            if let value = try container.decodeIfPresent(T.self, forKey: key) { shape[keyPath: path] = value }
        }
    }
}
