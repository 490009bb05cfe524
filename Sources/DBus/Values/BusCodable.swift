/// A Swift type that can be written into a D-Bus message as one complete type.
///
/// Conformances write exactly `busType`; the writer checks this and throws on a mismatch.
public protocol BusEncodable {
    /// The D-Bus type every value of this Swift type is written as.
    static var busType: ValueType { get }
    /// Writes this value.
    func encode(to writer: inout MessageWriter) throws
}

/// A Swift type that can be read from a D-Bus message.
public protocol BusDecodable {
    /// Reads a value, throwing `BusError` (`InvalidArgs`) when the message holds another type.
    init(from reader: inout MessageReader) throws
}

/// A type that is both `BusEncodable` and `BusDecodable`.
public typealias BusCodable = BusEncodable & BusDecodable
