/// A property whose keys `ValueEncoder` and `ValueDecoder` put in the `a{sv}` of the struct
/// that holds it, rather than under a key of its own (serde's `flatten`): a struct that is
/// another one's entries and some more, written once. Other coders nest it as usual.
@propertyWrapper
public struct Flattened<Wrapped: Codable>: Codable {
    public var wrappedValue: Wrapped

    public init(wrappedValue: Wrapped) {
        self.wrappedValue = wrappedValue
    }

    public func encode(to encoder: any Encoder) throws { try wrappedValue.encode(to: encoder) }

    /// From `ValueDecoder`, as a keyed property, the keys of the dictionary that holds it (a
    /// cast to a struct, not a conformance lookup); otherwise, its own value.
    public init(from decoder: any Decoder) throws {
        if let holder = (decoder as? ValueDecoding)?.holder(for: Self.self) {
            wrappedValue = try Wrapped(from: holder)
        } else {
            wrappedValue = try Wrapped(from: decoder)
        }
    }
}

extension Flattened: Sendable where Wrapped: Sendable {}
extension Flattened: Equatable where Wrapped: Equatable {}
extension Flattened: Hashable where Wrapped: Hashable {}
