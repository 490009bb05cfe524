import Synchronization

/// What `ValueEncoder` knows of a type besides its `Codable`: whether it
/// is a `Flattened`, `SortedKeys`, a `[String: V]`, `ValueTyped` or an array, worked out once
/// per type rather than once per value. A type that is not `CodingTraited` (most) costs one
/// conformance lookup; an array, a `[String: V]` or a `Flattened` states its traits
/// (`KnownCodingTraits`); any other asks `SortedKeys` and `ValueTyped`.
struct CodingTraits: Sendable {
    /// A `@Flattened` property: its keys are those of the dictionary that holds it.
    let flattened: Bool
    /// Its `a{sv}` is written with its keys sorted (a `SortedKeys` type, a `[String: V]`).
    let sortedKeys: Bool
    /// A `[String: V]` with a `ValueTyped` `V`: the entries' type (`a{ss}`, `a{sa{sv}}`).
    let entryValueType: ValueType?
    /// An array of a `ValueTyped` element: the element's type, for an empty one.
    let elementType: ValueType?
    /// A `ValueTyped` type's (or an array of one's) D-Bus type: what an array of it or a
    /// `[String: Self]` is typed by.
    let valueType: ValueType?
    /// An array: encoded item by item, without an unkeyed container, if its items are `Encodable`.
    let encodesItems: Bool

    init(
        flattened: Bool = false, sortedKeys: Bool = false, entryValueType: ValueType? = nil, elementType: ValueType? = nil,
        valueType: ValueType? = nil, encodesItems: Bool = false
    ) {
        self.flattened = flattened
        self.sortedKeys = sortedKeys
        self.entryValueType = entryValueType
        self.elementType = elementType
        self.valueType = valueType
        self.encodesItems = encodesItems
    }

    /// `type`'s traits, found by as few conformance lookups as it takes.
    private static func lookUp(_ type: Any.Type) -> CodingTraits {
        guard type is any CodingTraited.Type else { return CodingTraits() }
        if let known = type as? any KnownCodingTraits.Type { return known.codingTraits }
        return CodingTraits(sortedKeys: type is any SortedKeys.Type, valueType: (type as? any ValueTyped.Type)?.valueType)
    }

    /// Every type's traits met so far; as many entries as the program has coded types.
    private static let known = Mutex<[ObjectIdentifier: CodingTraits]>([:])

    /// The traits of `type`, worked out the first time it is asked for.
    static func of(_ type: Any.Type) -> CodingTraits {
        let id = ObjectIdentifier(type)
        if let traits = known.withLock({ $0[id] }) { return traits }
        let traits = lookUp(type)
        known.withLock { $0[id] = traits }
        return traits
    }
}
