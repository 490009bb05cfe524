import Synchronization

/// What `ValueEncoder` and `ValueDecoder` know of a type besides its `Codable`: its
/// conformances to `Flattened`, `SortedKeys`, a `[String: V]`, `ValueTyped` and an array's,
/// looked up once per type rather than once per value (a conformance lookup costs as much
/// as encoding a small value).
struct CodingTraits: Sendable {
    /// A `@Flattened` property: its keys are those of the dictionary that holds it.
    let flattened: Bool
    /// Its `a{sv}` is written with its keys sorted (a `SortedKeys` type, a `[String: V]`).
    let sortedKeys: Bool
    /// A `[String: V]` with a `ValueTyped` `V`: the entries' type (`a{ss}`, `a{sa{sv}}`).
    let entryValueType: ValueType?
    /// An array of a `ValueTyped` element: the element's type, for an empty one.
    let elementType: ValueType?
    /// An array of `Encodable` items: encoded item by item, without an unkeyed container.
    let encodesItems: Bool
    /// An array of `Decodable` items: decoded item by item, without an unkeyed container.
    let decodesItems: Bool

    private init(_ type: Any.Type) {
        flattened = type is any FlattenedCoding.Type
        let dictionary = type as? any StringKeyedDictionary.Type
        sortedKeys = dictionary != nil || type is any SortedKeys.Type
        entryValueType = dictionary?.entryValueType
        if case .array(let element)? = (type as? any ValueTyped.Type)?.valueType { elementType = element } else { elementType = nil }
        encodesItems = type is any EncodableItems.Type
        decodesItems = type is any DecodableItems.Type
    }

    /// Every type's traits met so far; as many entries as the program has coded types.
    private static let known = Mutex<[ObjectIdentifier: CodingTraits]>([:])

    /// The traits of `type`, worked out the first time it is asked for.
    static func of(_ type: Any.Type) -> CodingTraits {
        let id = ObjectIdentifier(type)
        if let traits = known.withLock({ $0[id] }) { return traits }
        let traits = CodingTraits(type)
        known.withLock { $0[id] = traits }
        return traits
    }
}
