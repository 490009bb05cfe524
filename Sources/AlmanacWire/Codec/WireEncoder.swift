import DBus
import FoundationEssentials

/// The contract's `ValueEncoder`: a struct as the `a{sv}` of its properties, and a date as
/// whole Unix seconds (`x`), as every time on the bus is (docs/bus-api.md). For the model
/// structs the codecs pass, whose properties are strings, numbers, dates, string enums and
/// optionals of them, encoding cannot fail (`EncodedStructTests`); were it to, the answer
/// would be an empty dictionary.
enum WireEncoder {
    /// `value` as an `a{sv}`, its keys sorted or (`.encoded`) in the order of its properties.
    static func dictionary<T: Encodable>(_ value: T, keys order: ValueEncoder.KeyOrder = .sorted) -> Value {
        (try? encoder(order).encode(value)) ?? .dictionary(key: .string, value: .variant, [])
    }

    /// `value`'s fields, not yet wrapped in variants, for a dictionary the codec adds to.
    static func fields<T: Encodable>(_ value: T) -> [String: Value] {
        (try? encoder(.sorted).encodeFields(value)) ?? [:]
    }

    private static func encoder(_ order: ValueEncoder.KeyOrder) -> ValueEncoder {
        ValueEncoder(keyOrder: order) { value in (value as? Date).map { .int64(WeatherCodec.seconds($0)) } }
    }
}
