/// A `BusCodable` type whose values convert to and from the dynamic `Value` exactly: what a
/// typed property (`BusProperty`) holds, since `org.freedesktop.DBus.Properties` carries its
/// values in variants, `GetAll` and `PropertiesChanged` many of them in one `a{sv}`.
public protocol BusValueConvertible: BusCodable, Sendable {
    /// This value as a `Value` of type `busType`.
    var busValue: Value { get }
    /// The value `value` holds (looking through variants), or `nil` when it is of another type.
    init?(busValue value: Value)
}

extension Bool: BusValueConvertible {
    public var busValue: Value { .boolean(self) }
    public init?(busValue value: Value) { guard case .boolean(let v) = value.unwrapped else { return nil }; self = v }
}

extension UInt8: BusValueConvertible {
    public var busValue: Value { .byte(self) }
    public init?(busValue value: Value) { guard case .byte(let v) = value.unwrapped else { return nil }; self = v }
}

extension Int16: BusValueConvertible {
    public var busValue: Value { .int16(self) }
    public init?(busValue value: Value) { guard case .int16(let v) = value.unwrapped else { return nil }; self = v }
}

extension UInt16: BusValueConvertible {
    public var busValue: Value { .uint16(self) }
    public init?(busValue value: Value) { guard case .uint16(let v) = value.unwrapped else { return nil }; self = v }
}

extension Int32: BusValueConvertible {
    public var busValue: Value { .int32(self) }
    public init?(busValue value: Value) { guard case .int32(let v) = value.unwrapped else { return nil }; self = v }
}

extension UInt32: BusValueConvertible {
    public var busValue: Value { .uint32(self) }
    public init?(busValue value: Value) { guard case .uint32(let v) = value.unwrapped else { return nil }; self = v }
}

extension Int64: BusValueConvertible {
    public var busValue: Value { .int64(self) }
    public init?(busValue value: Value) { guard case .int64(let v) = value.unwrapped else { return nil }; self = v }
}

extension UInt64: BusValueConvertible {
    public var busValue: Value { .uint64(self) }
    public init?(busValue value: Value) { guard case .uint64(let v) = value.unwrapped else { return nil }; self = v }
}

extension Double: BusValueConvertible {
    public var busValue: Value { .double(self) }
    public init?(busValue value: Value) { guard case .double(let v) = value.unwrapped else { return nil }; self = v }
}

extension String: BusValueConvertible {
    public var busValue: Value { .string(self) }
    public init?(busValue value: Value) { guard case .string(let v) = value.unwrapped else { return nil }; self = v }
}

extension ObjectPath: BusValueConvertible {
    public var busValue: Value { .objectPath(self) }
    public init?(busValue value: Value) { guard case .objectPath(let v) = value.unwrapped else { return nil }; self = v }
}

extension VariantDictionary: BusValueConvertible {
    /// The dictionary it holds (which should be an `a{sv}`: a property's getter that makes
    /// anything else is refused when it is read, as any getter of the wrong type is).
    public var busValue: Value { value }
    public init?(busValue value: Value) {
        let value = value.unwrapped
        guard value.type == Self.busType else { return nil }
        self.init(value)
    }
}

/// An array of such values, typed by its element (`as`, `ao`, `aa{sv}`).
extension Array: BusValueConvertible where Element: BusValueConvertible {
    public var busValue: Value { .array(Element.busType, map(\.busValue)) }
    public init?(busValue value: Value) {
        guard case .array(let type, let items) = value.unwrapped, type == Element.busType else { return nil }
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for item in items {
            guard let element = Element(busValue: item) else { return nil }
            elements.append(element)
        }
        self = elements
    }
}
