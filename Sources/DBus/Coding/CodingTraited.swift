/// A type `ValueEncoder` knows something of besides its `Codable`: a `SortedKeys`, a
/// `ValueTyped`, an array, a `[String: V]`, a `Flattened`. The encoder asks a type this one
/// question first, so that a plain struct costs one conformance lookup (the
/// runtime's first lookup of a type and protocol scans every conformance record of the
/// program) rather than one for each trait.
public protocol CodingTraited {}
