/// An array `ValueDecoder` reads item by item, without an unkeyed container per array:
/// the same items `Array.init(from:)` reads through one.
protocol DecodableItems {
    /// The array whose items `items` are, each read below `decoding` (the array's own decoder).
    static func unboxItems(_ items: [Value], in decoding: ValueDecoding) throws -> Self
}

extension Array: DecodableItems where Element: Decodable {
    static func unboxItems(_ items: [Value], in decoding: ValueDecoding) throws -> [Element] {
        let path = decoding.path
        var out: [Element] = []
        out.reserveCapacity(items.count)
        for index in items.indices { out.append(try decoding.decoding(items[index], at: AnyKey(index), in: path).unbox(Element.self)) }
        return out
    }
}
