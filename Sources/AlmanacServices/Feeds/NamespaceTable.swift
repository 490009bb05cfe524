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

    func namespace(ofPrefix prefix: UnsafeBufferPointer<UInt8>) -> FeedNamespace {
        for entry in declared where entry.prefix.elementsEqual(prefix) { return entry.namespace }
        return FeedNamespace(conventionalPrefix: prefix)
    }
}
