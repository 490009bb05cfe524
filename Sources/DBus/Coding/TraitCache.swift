/// The traits of the types one `encode` call has met, and the encoder's override
/// of each: a look-up without a lock, by comparing type identities (a value has a handful
/// of types in it, met thousands of times: the hours of a forecast, a library's episodes).
/// One call's own, never shared between threads.
final class TraitCache {
    private var types: [ObjectIdentifier] = []
    private var entries: [Entry] = []
    private let overrides: [ObjectIdentifier: ValueEncoder.Override]

    struct Entry {
        let traits: CodingTraits
        /// How the encoder writes this type instead of as `Codable` says, if it does.
        let override: ValueEncoder.Override?
    }

    init(overrides: [ObjectIdentifier: ValueEncoder.Override] = [:]) {
        self.overrides = overrides
    }

    /// `type`'s traits and override.
    func entry(_ type: Any.Type) -> Entry {
        let id = ObjectIdentifier(type)
        for index in types.indices where types[index] == id { return entries[index] }
        let entry = Entry(traits: CodingTraits.of(type), override: overrides.isEmpty ? nil : overrides[id])
        if types.isEmpty {
            types.reserveCapacity(16)
            entries.reserveCapacity(16)
        }
        types.append(id)
        entries.append(entry)
        return entry
    }
}
