/// A standard or DBus type whose traits it states itself (an array, a `[String: V]`, a
/// `Flattened`), so the encoder learns them from it without a lookup per trait.
protocol KnownCodingTraits: CodingTraited {
    static var codingTraits: CodingTraits { get }
}

extension Array: KnownCodingTraits {
    /// Encoded item by item (`EncodableItems`, which the encoder still casts to: only an
    /// `Encodable` element's array is one), typed by its element when empty.
    static var codingTraits: CodingTraits {
        let element = CodingTraits.of(Element.self).valueType
        return CodingTraits(elementType: element, valueType: element.map { .array($0) }, encodesItems: true)
    }
}

extension Dictionary: CodingTraited where Key == String {}

extension Dictionary: KnownCodingTraits where Key == String {
    /// An `a{s…}` with its keys sorted (Swift's dictionary order changes from one process to
    /// the next), whose values are of `Value`'s D-Bus type when it has one, or variants.
    static var codingTraits: CodingTraits {
        CodingTraits(sortedKeys: true, entryValueType: CodingTraits.of(Value.self).valueType)
    }
}

extension Flattened: KnownCodingTraits {
    static var codingTraits: CodingTraits { CodingTraits(flattened: true) }
}
