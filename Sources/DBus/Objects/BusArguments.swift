/// A message body's types known at compile time: what a typed method takes or answers
/// (`BusMethod`), zero or more complete types in order.
///
/// `Args<String, UInt32>` is the body `su` read and written as the Swift value
/// `(String, UInt32)`; `Args<>` is the empty body (`()`), `Args<[String: Value]>` one `a{sv}`
/// (a one-element body is the element itself, not a tuple).
public protocol BusArguments: Sendable {
    /// The Swift value of a whole body: a tuple of the arguments, one argument alone, or `()`.
    associatedtype Values
    /// The D-Bus type of each argument, in order.
    static var types: [ValueType] { get }
    /// Writes `values` as the body's arguments.
    static func write(_ values: Values, to writer: inout MessageWriter) throws
    /// Reads the body's arguments, throwing `InvalidArgs` when the message holds other types.
    static func read(from reader: inout MessageReader) throws -> Values
}

extension BusArguments {
    /// The body's signature, such as `su`.
    public static var signature: String {
        var text = ""
        for type in types { type.appendSignature(to: &text) }
        return text
    }
}
