/// An `a{sv}` dictionary held as a `Value`, its entries in the order they were made: the
/// typed form of what codecs build as `Value`s, for a `BusMethod`'s arguments and replies
/// (`Args<[VariantDictionary]>` is `aa{sv}`).
///
/// Unlike `[String: Value]`, it keeps its entries' order, so the bytes it writes are the ones
/// the `Value` it holds writes. Writing one that holds anything but an `a{sv}` throws.
public struct VariantDictionary: BusCodable, Hashable, Sendable {
    /// The dictionary: `.dictionary(key: .string, value: .variant, …)`.
    public var value: Value

    /// Holds `value`, which should be an `a{sv}` dictionary (checked when it is written).
    public init(_ value: Value) { self.value = value }

    /// The dictionary of `pairs`, in their order.
    public init(_ pairs: KeyValuePairs<String, Value>) { value = .stringVariantDictionary(pairs) }

    /// The entries as a Swift dictionary, each value out of its variant (order is lost).
    public var entries: [String: Value] { (value.stringKeyedEntries ?? [:]).mapValues(\.unwrapped) }

    public static var busType: ValueType { .dictionary(key: .string, value: .variant) }

    public func encode(to writer: inout MessageWriter) throws {
        guard value.type == Self.busType else {
            // The writer's fault, not the peer's: `Failed`, as a reply of the wrong type is.
            throw BusError(.failed, "An a{sv} was to be written, but the value is of type '\(value.type.signature)'.")
        }
        try writer.write(value)
    }

    public init(from reader: inout MessageReader) throws {
        let value = try reader.readValue()
        guard value.type == Self.busType else {
            throw BusError.invalidArgs("An a{sv} was expected, not '\(value.type.signature)'.")
        }
        self.value = value
    }
}
