/// A type `ValueEncoder` and `ValueDecoder` know something of besides its `Codable`: a
/// `SortedKeys`, a `ValueTyped`, an array, a `[String: V]`, a `Flattened`. The coders ask a
/// type this one question first, so that a plain struct costs one conformance lookup (the
/// runtime's first lookup of a type and protocol scans every conformance record of the
/// program) rather than one for each trait.
public protocol CodingTraited {}
