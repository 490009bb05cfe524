/// A type whose every value has the same D-Bus type, known without a value: what
/// `ValueEncoder` types an empty array by.
public protocol ValueTyped: CodingTraited {
    /// The D-Bus type of every value of this type.
    static var valueType: ValueType { get }
}

/// A basic type's D-Bus type is the one it is written as (`BusEncodable`): stated once there.
extension ValueTyped where Self: BusEncodable {
    public static var valueType: ValueType { busType }
}

extension Bool: ValueTyped {}
extension UInt8: ValueTyped {}
extension Int16: ValueTyped {}
extension UInt16: ValueTyped {}
extension Int32: ValueTyped {}
extension UInt32: ValueTyped {}
extension Int64: ValueTyped {}
extension UInt64: ValueTyped {}
extension Double: ValueTyped {}
extension String: ValueTyped {}
/// Swift's word-sized integers are written as D-Bus's 64-bit ones.
extension Int: ValueTyped { public static var valueType: ValueType { .int64 } }
extension UInt: ValueTyped { public static var valueType: ValueType { .uint64 } }
extension Array: ValueTyped where Element: ValueTyped { public static var valueType: ValueType { .array(Element.valueType) } }
