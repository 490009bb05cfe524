/// The prefixes a feed has declared for namespaces we know, consulted before the
/// conventional meaning of a prefix. Declarations are collected document-wide rather than
/// scoped to their element: feeds declare prefixes once, and being lenient costs nothing.
struct NamespaceTable {
    private var declared: [(prefix: [UInt8], namespace: FeedNamespace)] = []

    /// Records `xmlns:prefix="uri"` when the URI names a namespace we know.
    mutating func declare(prefix: UnsafeBufferPointer<UInt8>, uri: UnsafeBufferPointer<UInt8>) {
        guard declared.count < 64, let namespace = FeedNamespace(uri: uri) else { return }
        if let index = declared.firstIndex(where: { $0.prefix.elementsEqual(prefix) }) {
            declared[index].namespace = namespace
        } else {
            declared.append((Array(prefix), namespace))
        }
    }

    /// Conventional meanings already looked up, so each prefix is worked out once.
    private var conventional: [(prefix: [UInt8], namespace: FeedNamespace)] = []

    mutating func namespace(ofPrefix prefix: UnsafeBufferPointer<UInt8>) -> FeedNamespace {
        for entry in declared where entry.prefix.elementsEqual(prefix) { return entry.namespace }
        for entry in conventional where entry.prefix.elementsEqual(prefix) { return entry.namespace }
        let namespace = FeedNamespace(conventionalPrefix: prefix)
        if conventional.count < 64 { conventional.append((Array(prefix), namespace)) }
        return namespace
    }
}
