@testable import DBus
import TestHarness
import Testing

/// `ValueEncoder`/`ValueDecoder`: Codable values as D-Bus values and back, through real
/// marshalling, with the types zvariant would give them.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ValueCodingTests {
    struct Place: Codable, Equatable {
        var name: String
        var latitude: Double
        var id: Int?
        var population: Int32?
        var tags: [String]
        var flags: [Bool]
        var small: UInt8
        var count: UInt32
        var total: UInt64
        var open: Bool
        var inner: Inner?
        var inners: [Inner]
    }

    struct Inner: Codable, Equatable {
        var label: String
        var weight: Int16
    }

    static let place = Place(name: "Berlin", latitude: 52.52, id: 2_950_159, population: nil, tags: ["capital"], flags: [],
                             small: 7, count: 3, total: .max, open: true, inner: Inner(label: "x", weight: -2),
                             inners: [Inner(label: "a", weight: 1), Inner(label: "b", weight: 2)])

    @Test func aStructIsAnAsvOfItsPropertiesWithTheirTypes() throws {
        let value = try ValueEncoder().encode(Self.place)
        #expect(value.type.signature == "a{sv}")
        let fields = try #require(value.stringKeyedEntries)
        #expect(fields.keys.sorted() == ["count", "flags", "id", "inner", "inners", "latitude", "name", "open", "small", "tags", "total"],
                "nil is left out")
        #expect(fields["name"] == .variant(.string("Berlin")))
        #expect(fields["id"] == .variant(.int64(2_950_159)))
        #expect(fields["small"] == .variant(.byte(7)))
        #expect(fields["count"] == .variant(.uint32(3)))
        #expect(fields["total"] == .variant(.uint64(.max)))
        #expect(fields["flags"] == .variant(.array(.boolean, [])), "an empty array is typed by its element")
        #expect(fields["inners"]?.unwrapped.type.signature == "aa{sv}")
        #expect(fields["inner"] == .variant(.stringVariantDictionary(["label": .string("x"), "weight": .int16(-2)])))
    }

    @Test func emptyContainersAreTypedThroughNestedArraysAndDictionaries() throws {
        struct Nested: Codable {
            var grid: [[Int]] = [[]]
            var none: [[UInt8]] = []
            var byName: [String: [Int32]] = ["a": []]
            var counts: [String: UInt32] = [:]
            var inners: [String: Inner] = [:]
        }
        let fields = try #require(try ValueEncoder().encode(Nested()).stringKeyedEntries)
        #expect(fields["grid"]?.unwrapped == .array(.array(.int64), [.array(.int64, [])]))
        #expect(fields["none"]?.unwrapped.type.signature == "aay")
        #expect(fields["byName"]?.unwrapped.type.signature == "a{sai}")
        #expect(fields["counts"]?.unwrapped.type.signature == "a{su}")
        #expect(fields["inners"]?.unwrapped.type.signature == "a{sv}", "a struct that is not ValueTyped is a variant")
    }

    @Test func keysAreSortedUnlessAskedOtherwise() throws {
        let sorted = try ValueEncoder().encode(Inner(label: "x", weight: 1))
        #expect(sorted == .stringVariantDictionary(["label": .string("x"), "weight": .int16(1)]))
        struct Backwards: Codable { var z = 1, a = 2 }
        let keys = { (value: Value) -> [String] in
            guard case .dictionary(_, _, let entries) = value else { return [] }
            return entries.compactMap(\.key.stringValue)
        }
        #expect(keys(try ValueEncoder().encode(Backwards())) == ["a", "z"])
        #expect(keys(try ValueEncoder(keyOrder: .encoded).encode(Backwards())) == ["z", "a"])
    }

    @Test func valuesRoundTripThroughAMarshalledMessage() throws {
        let message = try roundTrip { try $0.write(try ValueEncoder().encode(Self.place)) }
        #expect(message.signature.rawValue == "a{sv}")
        let read = try #require(try message.values().first)
        #expect(try ValueDecoder().decode(Place.self, from: read) == Self.place)
        #expect(try ValueDecoder().decode(Place.self, fromFields: try ValueEncoder().encodeFields(Self.place)) == Self.place)
    }

    @Test func numbersDecodeFromAnyTypeThatHoldsThemExactly() throws {
        let fields: [String: Value] = ["label": .string("x"), "weight": .uint32(300), "extra": .string("ignored")]
        #expect(try ValueDecoder().decode(Inner.self, fromFields: fields) == Inner(label: "x", weight: 300))
        struct Numbers: Codable, Equatable { var d: Double; var i: Int; var u: UInt8 }
        #expect(try ValueDecoder().decode(Numbers.self, fromFields: ["d": .int32(-3), "i": .uint64(5), "u": .int64(255)]) == Numbers(d: -3, i: 5, u: 255))
        #expect(throws: DecodingError.self) { _ = try ValueDecoder().decode(Numbers.self, fromFields: ["d": .double(1), "i": .uint64(.max), "u": .int64(1)]) }
        #expect(throws: DecodingError.self) { _ = try ValueDecoder().decode(Numbers.self, fromFields: ["d": .double(1), "i": .int64(1), "u": .int64(256)]) }
    }

    static let malformed: [Value] = [
        .string("not a dictionary"), .array(.string, []), .stringVariantDictionary(["label": .string("x")]),
        .stringVariantDictionary(["label": .int32(1), "weight": .int16(1)]), .stringVariantDictionary(["label": .string("x"), "weight": .double(1.5)]),
        .stringVariantDictionary(["label": .string("x"), "weight": .boolean(true)]), .dictionary(key: .int32, value: .string, []),
        .variant(.variant(.uint64(.max))),
    ]

    @Test(arguments: malformed)
    func whatIsNotTheTypeThrowsAndNeverTraps(_ value: Value) {
        #expect(throws: DecodingError.self) { _ = try ValueDecoder().decode(Inner.self, from: value) }
    }

    @Test func whatTheBusCannotCarryThrows() {
        struct Untyped: Encodable { var items: [Inner] = [] }
        #expect(throws: EncodingError.self) { _ = try ValueEncoder().encode(Untyped()) }
        #expect(throws: EncodingError.self) { _ = try ValueEncoder().encode([Int?.none]) }
        struct Mixed: Encodable {
            func encode(to encoder: any Encoder) throws {
                var items = encoder.unkeyedContainer()
                try items.encode(1)
                try items.encode("two")
            }
        }
        #expect(throws: EncodingError.self) { _ = try ValueEncoder().encode(Mixed()) }
    }

    @Test func anOverrideWritesATypeItsOwnWay() throws {
        struct Stamp: Codable, Equatable, Sendable { var seconds: Double }
        struct Event: Codable, Equatable { var at: Stamp }
        let encoder = ValueEncoder(overrides: [.init(Stamp.self) { .int64(Int64($0.seconds.rounded())) }])
        let decoder = ValueDecoder { value, type in type == Stamp.self ? value.integerValue.map { Stamp(seconds: Double($0)) } : nil }
        let value = try encoder.encode(Event(at: Stamp(seconds: 1_800_000_000.4)))
        #expect(value == .stringVariantDictionary(["at": .int64(1_800_000_000)]))
        #expect(try decoder.decode(Event.self, from: value) == Event(at: Stamp(seconds: 1_800_000_000)))
    }
}
