@testable import DBus
import TestHarness
import Testing

/// `ValueDecoder` reads what `ValueEncoder` writes without asking a type what it is: a
/// `@Flattened` property from the keys of the dictionary that holds it (whether or not that
/// dictionary has an entry under the property's own name), arrays and dictionaries nested
/// and empty, and every basic type present, absent and of the wrong type.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ValueDecodingShapesTests {
    struct Details: Codable, Equatable {
        var temperature: Double
        var wind: Int32?
        var summary: String
    }

    struct Reading: Codable, Equatable {
        var time: Int64
        @Flattened var details: Details
    }

    /// Two levels of flattening: a reading's keys, and its details' keys, all in one `a{sv}`.
    struct Current: Codable, Equatable {
        var place: String
        @Flattened var reading: Reading
    }

    static let current = Current(place: "Berlin", reading: Reading(time: 1_800_000_000, details: Details(temperature: 21.5, wind: 3, summary: "clear")))

    @Test func flattenedPropertiesReadTheKeysOfTheDictionaryThatHoldsThem() throws {
        let message = try roundTrip { try $0.write(try ValueEncoder().encode(Self.current)) }
        let value = try #require(try message.values().first)
        #expect(value.stringKeyedEntries.map { $0.keys.sorted() } == ["place", "summary", "temperature", "time", "wind"])
        #expect(try ValueDecoder().decode(Current.self, from: value) == Self.current)
        #expect(try ValueDecoder().decode(Current.self, fromFields: try ValueEncoder().encodeFields(Self.current)) == Self.current)
        let list = try ValueDecoder().decode([Current].self, from: try ValueEncoder().encode([Self.current, Self.current]))
        #expect(list == [Self.current, Self.current], "flattened inside the items of an array too")
    }

    @Test func aFlattenedPropertyIgnoresAnEntryUnderItsOwnName() throws {
        let fields: [String: Value] = ["time": .int64(5), "details": .string("a peer's own key"), "temperature": .double(1.5), "summary": .string("x")]
        let reading = try ValueDecoder().decode(Reading.self, fromFields: fields)
        #expect(reading == Reading(time: 5, details: Details(temperature: 1.5, wind: nil, summary: "x")))
        let nested: [String: Value] = ["place": .string("Oslo"), "reading": .int32(1), "details": .boolean(true), "time": .int64(7),
                                       "temperature": .int32(-4), "summary": .string("snow")]
        let current = try ValueDecoder().decode(Current.self, fromFields: nested)
        #expect(current == Current(place: "Oslo", reading: Reading(time: 7, details: Details(temperature: -4, wind: nil, summary: "snow"))))
    }

    @Test func aFlattenedValueOutsideADictionaryIsItsOwnValue() throws {
        let details = Details(temperature: 2, wind: nil, summary: "fog")
        let entries = try ValueEncoder().encode(details)
        #expect(try ValueDecoder().decode(Flattened<Details>.self, from: entries).wrappedValue == details)
        let items = try ValueDecoder().decode([Flattened<Details>].self, from: .array(entries.type, [entries, entries]))
        #expect(items.map(\.wrappedValue) == [details, details])
    }

    /// A type that hands its decoder on to a `Flattened` (not a `@Flattened` property of a
    /// keyed struct) reads the `Flattened` from its own value, not from the keys around it.
    struct PassesItsDecoderOn: Codable, Equatable {
        var details: Details
        init(details: Details) { self.details = details }
        init(from decoder: any Decoder) throws { details = try decoder.singleValueContainer().decode(Flattened<Details>.self).wrappedValue }
        func encode(to encoder: any Encoder) throws { try details.encode(to: encoder) }
    }

    struct Outer: Codable, Equatable {
        var inner: PassesItsDecoderOn
    }

    @Test func onlyAFlattenedPropertyReadsTheKeysAroundIt() throws {
        let own = try ValueEncoder().encode(Details(temperature: 1, wind: nil, summary: "inner"))
        let fields: [String: Value] = ["inner": own, "temperature": .double(9), "summary": .string("outer")]
        let outer = try ValueDecoder().decode(Outer.self, fromFields: fields)
        #expect(outer.inner.details == Details(temperature: 1, wind: nil, summary: "inner"))
    }

    @Test func aMissingKeyIsKeyNotFoundAtItsPlace() throws {
        var fields = try ValueEncoder().encodeFields(Self.current)
        fields["summary"] = nil
        #expect(missingKey { _ = try ValueDecoder().decode(Current.self, fromFields: fields) } == "summary")
        struct Holder: Codable { var inner: Details }
        #expect(missingKey { _ = try ValueDecoder().decode(Holder.self, fromFields: [:]) } == "inner")
    }

    struct Item: Codable, Equatable, DictionaryTyped {
        var name: String
    }

    struct Nested: Codable, Equatable {
        var grid: [[Int]] = [[], [1, 2]]
        var none: [[UInt8]] = []
        var byName: [String: [Int32]] = ["a": [], "b": [3]]
        var counts: [String: UInt32] = [:]
        var items: [Item] = []
        var itemsByName: [String: [Item]] = ["x": [], "y": [Item(name: "z")]]
        var anyValues: [String: Value] = ["v": .uint16(9)]
    }

    @Test func nestedAndEmptyArraysAndDictionariesDecodeAsTheyWereWritten() throws {
        let written = Nested()
        let message = try roundTrip { try $0.write(try ValueEncoder().encode(written)) }
        let value = try #require(try message.values().first)
        #expect(try ValueDecoder().decode(Nested.self, from: value) == written)
        let full = Nested(grid: [[7]], none: [[1], []], byName: [:], counts: ["c": 4], items: [Item(name: "a"), Item(name: "b")], itemsByName: [:],
                          anyValues: [:])
        #expect(try ValueDecoder().decode(Nested.self, from: try ValueEncoder().encode(full)) == full)
    }

    @Test func aWrongItemIsNamedByItsIndex() throws {
        let items: Value = .array(.dictionary(key: .string, value: .variant), [
            .stringVariantDictionary(["name": .string("a")]), .stringVariantDictionary(["name": .int32(1)]),
        ])
        let path = mismatchPath { _ = try ValueDecoder().decode([Item].self, from: items) }
        #expect(path?.map { $0.intValue ?? -1 } == [1, -1] && path?.last?.stringValue == "name")
    }

    /// A peer may send a key twice: the last entry is read, as a Swift dictionary made of
    /// the entries would hold, whether the dictionary is looked through (small) or hashed
    /// (large).
    @Test(arguments: [1, DecodingEntries.scanned, DecodingEntries.scanned + 1, 50_000])
    func aKeyGivenTwiceReadsItsLastEntry(_ count: Int) throws {
        var entries = (0..<count).map { Value.DictionaryEntry(.string("k\($0)"), .variant(.uint32(UInt32($0)))) }
        entries.insert(.init(.string("k0"), .variant(.uint32(99))), at: 1)
        let value: Value = .dictionary(key: .string, value: .variant, entries)
        struct First: Codable { var k0: UInt32; var k1: UInt32? }
        #expect(try ValueDecoder().decode(First.self, from: value).k0 == 99)
        let all = try ValueDecoder().decode([String: UInt32].self, from: value)
        #expect(all.count == count, "each key once")
        #expect(all["k0"] == 99)
        #expect(all["k\(count - 1)"] == (count == 1 ? 99 : UInt32(count - 1)))
    }

    struct Basics: Codable, Equatable {
        var b: Bool?, s: String?, d: Double?, f: Float?
        var i: Int?, i8: Int8?, i16: Int16?, i32: Int32?, i64: Int64?
        var u: UInt?, u8: UInt8?, u16: UInt16?, u32: UInt32?, u64: UInt64?
    }

    struct RequiredBasics: Codable, Equatable {
        var b: Bool, s: String, d: Double, f: Float
        var i: Int, i8: Int8, i16: Int16, i32: Int32, i64: Int64
        var u: UInt, u8: UInt8, u16: UInt16, u32: UInt32, u64: UInt64
    }

    static let basics: [String: Value] = [
        "b": .boolean(true), "s": .string("s"), "d": .double(0.5), "f": .double(0.25), "i": .int64(-1), "i8": .int16(-8), "i16": .int16(-16),
        "i32": .int32(-32), "i64": .int64(.min), "u": .uint64(.max), "u8": .byte(8), "u16": .uint16(16), "u32": .uint32(32), "u64": .uint64(64),
    ]

    @Test func everyBasicTypeIsReadPresentAbsentAndMistyped() throws {
        let present = try ValueDecoder().decode(Basics.self, fromFields: Self.basics)
        #expect(present == Basics(b: true, s: "s", d: 0.5, f: 0.25, i: -1, i8: -8, i16: -16, i32: -32, i64: .min, u: .max, u8: 8, u16: 16, u32: 32, u64: 64))
        let required = try ValueDecoder().decode(RequiredBasics.self, fromFields: Self.basics)
        #expect(required == RequiredBasics(b: true, s: "s", d: 0.5, f: 0.25, i: -1, i8: -8, i16: -16, i32: -32, i64: .min, u: .max, u8: 8, u16: 16, u32: 32, u64: 64))
        #expect(try ValueDecoder().decode(Basics.self, fromFields: [:]) == Basics())
        for key in Self.basics.keys.sorted() {
            var fields = Self.basics
            fields[key] = key == "s" ? .int32(1) : .string("1")
            #expect(mismatchPath { _ = try ValueDecoder().decode(Basics.self, fromFields: fields) }?.map(\.stringValue) == [key])
            #expect(mismatchPath { _ = try ValueDecoder().decode(RequiredBasics.self, fromFields: fields) }?.map(\.stringValue) == [key])
            fields[key] = nil
            #expect(missingKey { _ = try ValueDecoder().decode(RequiredBasics.self, fromFields: fields) } == key)
        }
    }

    /// The key `decode` throws `keyNotFound` for; `nil` if it throws anything else or nothing.
    private func missingKey(_ decode: () throws -> Void) -> String? {
        guard case .keyNotFound(let key, _) = #expect(throws: DecodingError.self, performing: decode) else { return nil }
        return key.stringValue
    }

    /// Where `decode` throws `typeMismatch`; `nil` if it throws anything else or nothing.
    private func mismatchPath(_ decode: () throws -> Void) -> [any CodingKey]? {
        guard case .typeMismatch(_, let context) = #expect(throws: DecodingError.self, performing: decode) else { return nil }
        return context.codingPath
    }
}
