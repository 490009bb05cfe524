/// A type whose every value has the same D-Bus type, known without a value: what
/// `ValueEncoder` types an empty array by.
public protocol ValueTyped: CodingTraited {
    /// The D-Bus type of every value of this type.
    static var valueType: ValueType { get }
}

extension Bool: ValueTyped { public static var valueType: ValueType { .boolean } }
extension UInt8: ValueTyped { public static var valueType: ValueType { .byte } }
extension Int16: ValueTyped { public static var valueType: ValueType { .int16 } }
extension UInt16: ValueTyped { public static var valueType: ValueType { .uint16 } }
extension Int32: ValueTyped { public static var valueType: ValueType { .int32 } }
extension UInt32: ValueTyped { public static var valueType: ValueType { .uint32 } }
extension Int64: ValueTyped { public static var valueType: ValueType { .int64 } }
extension UInt64: ValueTyped { public static var valueType: ValueType { .uint64 } }
extension Int: ValueTyped { public static var valueType: ValueType { .int64 } }
extension UInt: ValueTyped { public static var valueType: ValueType { .uint64 } }
extension Double: ValueTyped { public static var valueType: ValueType { .double } }
extension String: ValueTyped { public static var valueType: ValueType { .string } }
extension Array: ValueTyped where Element: ValueTyped { public static var valueType: ValueType { .array(Element.valueType) } }
