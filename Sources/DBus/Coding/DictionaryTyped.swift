/// A type `ValueEncoder` writes as an `a{sv}` (a struct whose properties are its entries,
/// zvariant's `SerializeDict`), typed without a value: an empty list of it is still
/// `aa{sv}`, and a `[String: Self]` is `a{sa{sv}}`.
public protocol DictionaryTyped: ValueTyped {}

extension DictionaryTyped {
    public static var valueType: ValueType { .dictionary(key: .string, value: .variant) }
}
