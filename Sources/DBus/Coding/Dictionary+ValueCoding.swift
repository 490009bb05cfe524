/// What `ValueEncoder` knows of a `[String: V]` from its type: it is an `a{s…}` whose keys
/// it sorts (Swift's dictionary order changes from one process to the next), and whose
/// values are of `V`'s D-Bus type when `V` has one (`a{ss}`, `a{sa{sv}}`), or variants.
protocol StringKeyedDictionary {
    static var entryValueType: ValueType? { get }
}

extension Dictionary: StringKeyedDictionary where Key == String {
    static var entryValueType: ValueType? { (Value.self as? any ValueTyped.Type)?.valueType }
}
