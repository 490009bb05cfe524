/// A `Value` inside a `Codable` type (a `[String: Value]` property, an entry whose type only
/// its neighbours tell) is written as it is by `ValueEncoder` and read as it is by
/// `ValueDecoder`, which take it before `Codable` is asked; any other coder cannot carry
/// one and throws.
extension Value: Codable {
    public func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: "A D-Bus Value is written by ValueEncoder alone."))
    }

    public init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(Value.self, .init(codingPath: decoder.codingPath, debugDescription: "A D-Bus Value is read by ValueDecoder alone."))
    }
}
