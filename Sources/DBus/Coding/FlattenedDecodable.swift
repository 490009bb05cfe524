/// A `Flattened`, as `ValueDecoder` tells it from other types where a keyed property's key
/// is absent (the only place it asks a type what it is): read from the dictionary that
/// holds it.
protocol FlattenedDecodable {
    /// The value whose keys are those of the dictionary `holder` decodes.
    init(holder: ValueDecoding) throws
}

extension Flattened: FlattenedDecodable {
    init(holder: ValueDecoding) throws { wrappedValue = try Wrapped(from: holder) }
}
