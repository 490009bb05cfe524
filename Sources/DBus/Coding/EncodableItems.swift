/// An array `ValueEncoder` writes item by item, without an unkeyed container per array
/// (each one a box and a path key per item): the same `Value`s as `Array.encode(to:)`
/// makes through one, at a fraction of the cost for a forecast's hundreds of hours.
protocol EncodableItems {
    /// Each item as a `Value`, encoded below `encoding` (the array's own encoder).
    func boxItems(in encoding: ValueEncoding) throws -> [Value]
}

extension Array: EncodableItems where Element: Encodable {
    func boxItems(in encoding: ValueEncoding) throws -> [Value] {
        var values: [Value] = []
        values.reserveCapacity(count)
        for index in indices { values.append(try encoding.box(self[index], key: AnyKey(index))) }
        return values
    }
}
