/// The body of the types `T…`, in order (see `BusArguments`).
public struct Args<each T: BusCodable>: BusArguments {
    public typealias Values = (repeat each T)

    public static var types: [ValueType] {
        var types: [ValueType] = []
        for type in repeat (each T).self { types.append(type.busType) }
        return types
    }

    public static func write(_ values: Values, to writer: inout MessageWriter) throws {
        repeat try (each values).encode(to: &writer)
    }

    public static func read(from reader: inout MessageReader) throws -> Values {
        (repeat try (each T)(from: &reader))
    }
}
