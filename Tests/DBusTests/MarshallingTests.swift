import CDBus
@testable import DBus
import TestHarness
import Testing

/// Writes a message, marshals it to bytes and has libdbus parse (and so validate) those bytes
/// again, as a peer would receive them.
func roundTrip(_ body: (inout MessageWriter) throws -> Void) throws -> Message {
    let message = try Message.signal(path: ObjectPath("/test"), interface: InterfaceName("org.almanac.Test1"), member: "T", body)
    dbus_message_set_serial(message.raw, 1)
    var bytes: UnsafeMutablePointer<CChar>?
    var length: Int32 = 0
    #expect(dbus_message_marshal(message.raw, &bytes, &length) != 0)
    defer { dbus_free(bytes) }
    var error = CDBus.DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    guard let parsed = dbus_message_demarshal(bytes, length, &error) else {
        throw BusError(ErrorName.failed, "libdbus rejected the marshalled message: \(String(cString: error.message))")
    }
    return Message(taking: parsed)
}

@Suite(.onTestThreads, .timeLimit(.hang)) struct MarshallingTests {
    static let everyBasicValue: [Value] = [
        .byte(0), .byte(255), .boolean(true), .boolean(false),
        .int16(.min), .int16(.max), .uint16(.max), .int32(.min), .int32(-1), .uint32(.max),
        .int64(.min), .int64(.max), .uint64(.max), .double(-0.5), .double(.infinity), .double(.greatestFiniteMagnitude),
        .string(""), .string("héllo wörld ✓ 🎧"), .string(String(repeating: "x", count: 70_000)),
        .objectPath(.root), .objectPath(ObjectPath("/org/almanac/Almanac1")),
        .signature(.empty), .signature(Signature("a{sv}")),
    ]

    @Test(arguments: everyBasicValue)
    func basicValuesRoundTrip(_ value: Value) throws {
        let message = try roundTrip { try $0.write(value) }
        #expect(try message.values() == [value])
        #expect(message.signature.rawValue == value.type.signature)
    }

    @Test func nanSurvives() throws {
        let message = try roundTrip { try $0.write(Double.nan) }
        #expect(try message.arguments(Double.self).isNaN)
    }

    static let containers: [Value] = [
        .array(.int32, []),
        .array(.string, [.string("a"), .string("b")]),
        .array(.array(.byte), [.array(.byte, []), .array(.byte, [.byte(1), .byte(2)])]),
        .dictionary(key: .string, value: .variant, []),
        .stringVariantDictionary(["units": .string("metric"), "count": .uint32(3), "nested": .array(.string, [.string("x")])]),
        .dictionary(key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)), [
            .init(.objectPath(ObjectPath("/a")), .dictionary(key: .string, value: .dictionary(key: .string, value: .variant), [])),
        ]),
        .dictionary(key: .int64, value: .boolean, [.init(.int64(1), .boolean(true)), .init(.int64(-1), .boolean(false))]),
        .structure([.int32(1)]),
        .structure([.string("s"), .structure([.double(1.5), .array(.structure([.byte, .string]), [.structure([.byte(1), .string("x")])])])]),
        .variant(.variant(.variant(.uint64(9)))),
        .array(.variant, [.variant(.int32(1)), .variant(.string("two")), .variant(.array(.int16, [.int16(3)]))]),
    ]

    @Test(arguments: containers)
    func containersRoundTrip(_ value: Value) throws {
        let message = try roundTrip { try $0.write(value) }
        #expect(try message.values() == [value])
    }

    @Test func typedValuesRoundTrip() throws {
        let dictionary: [String: Value] = ["a": .int32(1), "b": .string("two")]
        let nested: [[UInt64]] = [[], [1, 2, 3], [.max]]
        let message = try roundTrip { writer in
            try writer.write(arguments: "text", Int32(-7), UInt64.max, true, dictionary, nested, [String: [ObjectPath]]())
        }
        let (text, small, big, flag, dict, lists, empty) = try message.arguments(
            String.self, Int32.self, UInt64.self, Bool.self, [String: Value].self, [[UInt64]].self, [String: [ObjectPath]].self
        )
        #expect(text == "text" && small == -7 && big == .max && flag)
        #expect(dict == dictionary)
        #expect(lists == nested)
        #expect(empty.isEmpty)
        #expect(message.signature.rawValue == "sitba{sv}aata{sao}")
    }

    @Test func bytesReadInOneStep() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0) }
        let message = try roundTrip { try bytes.encode(to: &$0) }
        var reader = message.reader()
        #expect(try reader.readBytes() == bytes)
        #expect(try message.arguments([UInt8].self) == bytes)
    }

    @Test func deepestAllowedNestingRoundTrips() throws {
        // 32 nested arrays, 32 nested structures, and variants to a total depth of 64.
        var arrays: Value = .int32(1)
        for _ in 0..<32 { arrays = .array(arrays.type, [arrays]) }
        var structs: Value = .int32(1)
        for _ in 0..<32 { structs = .structure([structs]) }
        var variants: Value = .int32(1)
        for _ in 0..<63 { variants = .variant(variants) }
        for value in [arrays, structs, variants] {
            let message = try roundTrip { try $0.write(value) }
            #expect(try message.values() == [value])
        }
    }

    @Test func nestingPastTheLimitsIsRefused() throws {
        var arrays: Value = .int32(1)
        for _ in 0..<33 { arrays = .array(arrays.type, [arrays]) }
        var structs: Value = .int32(1)
        for _ in 0..<33 { structs = .structure([structs]) }
        var variants: Value = .int32(1)
        for _ in 0..<65 { variants = .variant(variants) }
        for value in [arrays, structs, variants] {
            #expect(throws: BusError.self) { _ = try roundTrip { try $0.write(value) } }
        }
    }

    @Test func mismatchedValuesAreRefusedNotAborted() throws {
        let wrongElement = Value.array(.int32, [.int32(1), .string("two")])
        let wrongDictionary = Value.dictionary(key: .string, value: .int32, [.init(.string("a"), .string("b"))])
        for value in [wrongElement, wrongDictionary] {
            let error = try #require(throws: BusError.self) { _ = try roundTrip { try $0.write(value) } }
            #expect(error.code == .invalidValue)
        }
        // A typed writer that writes the wrong thing inside a container.
        #expect(throws: BusError.self) {
            _ = try roundTrip { try $0.writeArray(of: .string) { try $0.write(Int32(1)) } }
        }
        #expect(throws: BusError.self) {
            _ = try roundTrip { try $0.writeVariant(of: .string) { _ in } }
        }
        #expect(throws: BusError.self) {
            _ = try roundTrip { try $0.writeStructure { _ in } }
        }
        #expect(throws: BusError.self) {
            _ = try roundTrip { try $0.writeDictionaryEntry { _ in } }
        }
        #expect(throws: BusError.self) {
            _ = try roundTrip { try $0.writeDictionary(key: .variant, value: .string) { _ in } }
        }
        #expect(throws: BusError.self) {
            _ = try roundTrip { try $0.writeArray(of: .structure([.int32, .string])) { w in try w.writeStructure { try $0.write(Int32(1)) } } }
        }
    }

    @Test func stringsWithNULAreRefused() throws {
        let error = try #require(throws: BusError.self) { _ = try roundTrip { try $0.write("a\0b") } }
        #expect(error.message.contains("NUL"))
        #expect(throws: BusError.self) { _ = try roundTrip { try $0.write(Value.array(.string, [.string("ok"), .string("\0")])) } }
    }

    @Test func bodySignatureLongerThan255IsRefused() throws {
        _ = try roundTrip { w in for _ in 0..<255 { try w.write(UInt8(1)) } }
        #expect(throws: BusError.self) { _ = try roundTrip { w in for _ in 0..<256 { try w.write(UInt8(1)) } } }
    }

    @Test func arraysUpTo64MiBAreAcceptedAndLargerOnesRefused() throws {
        let limit = 67_108_864
        let largest = [UInt8](repeating: 7, count: limit)
        let message = try roundTrip { try largest.encode(to: &$0) }
        var reader = message.reader()
        #expect(try reader.readBytes().count == limit)
        let tooLarge = [UInt8](repeating: 7, count: limit + 1)
        let error = try #require(throws: BusError.self) { _ = try roundTrip { try tooLarge.encode(to: &$0) } }
        #expect(error.message.contains("64 MiB"))
    }

    @Test func readingTheWrongTypeSaysWhatWasExpected() throws {
        let message = try roundTrip { try $0.write(Int32(5)) }
        let error = try #require(throws: BusError.self) { _ = try message.arguments(String.self) }
        #expect(error.name == .invalidArgs)
        #expect(error.message == "Expected 's' but found 'i' (the arguments' signature is 'i').")
        let missing = try #require(throws: BusError.self) { _ = try message.arguments(Int32.self, Int32.self) }
        #expect(missing.message.contains("no more arguments"))
    }

    @Test func anElementReaderThatReadsNothingIsAnErrorNotAHang() throws {
        let message = try roundTrip { try [Int32(1), 2].encode(to: &$0) }
        var reader = message.reader()
        #expect(throws: BusError.self) { _ = try reader.readArray { _ in 0 } }
    }
}
