/// The entries of the `a{s…}` a keyed container reads. A small one (a struct's `a{sv}`) is
/// looked through as it came, comparing keys (a short key compares as two machine words):
/// no dictionary is made and no key hashed, where making one cost more than all the reads
/// of a forecast hour's properties. A large one, and the fields a caller gives, are a
/// dictionary. Either way a key given twice reads its last entry.
enum DecodingEntries {
    case items([Value.DictionaryEntry])
    case fields([String: Value])

    /// Up to this many entries are looked through rather than hashed: a look-up then costs
    /// at most about what hashing its key would.
    static let scanned = 32

    /// The entries of a dictionary's `items`, whose keys are strings.
    init(items: [Value.DictionaryEntry]) {
        if items.count <= Self.scanned {
            self = .items(items)
            return
        }
        var fields: [String: Value] = [:]
        fields.reserveCapacity(items.count)
        for item in items {
            if case .string(let key) = item.key { fields[key] = item.value }
        }
        self = .fields(fields)
    }

    /// The value at `key` (the last one given), variants not yet looked through.
    subscript(key: String) -> Value? {
        switch self {
        case .fields(let fields):
            return fields[key]
        case .items(let items):
            var index = items.endIndex
            while index > items.startIndex {
                index -= 1
                if case .string(let name) = items[index].key, name == key { return items[index].value }
            }
            return nil
        }
    }

    /// Every key, once.
    var keys: [String] {
        switch self {
        case .fields(let fields):
            return Array(fields.keys)
        case .items(let items):
            var seen = Set<String>()
            return items.compactMap { item in
                guard case .string(let key) = item.key, seen.insert(key).inserted else { return nil }
                return key
            }
        }
    }
}
