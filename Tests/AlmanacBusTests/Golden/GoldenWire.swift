import DBus
import Foundation
import TestHarness
import Testing

/// One value of the contract as it travels: marshalled by our DBus layer, its body compared
/// byte for byte with the golden file of its group (`Tests/Fixtures/golden-wire/<group>.txt`), and read back as a
/// client reads it.
struct GoldenCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// The value written. A `[String: Value]` is written with its keys sorted here: the bus
    /// writes such a dictionary's top level in Swift's dictionary order, which changes from
    /// one process to the next; every dictionary inside it keeps the order it was built in.
    let value: Value
    /// Whether the message holding `value`, read back, decodes to what was encoded.
    let decodes: @Sendable (Message) throws -> Bool

    var testDescription: String { name }

    init(_ name: String, value: Value, decodes: @escaping @Sendable (Message) throws -> Bool) {
        self.name = name
        self.value = value
        self.decodes = decodes
    }

    /// A value built as a `[String: Value]` (a signal's or a reply's `a{sv}`), read back as one.
    init(_ name: String, fields: [String: Value], decodes: @escaping @Sendable ([String: Value]) throws -> Bool) {
        self.init(name, value: .dictionary(key: .string, value: .variant, fields.sorted { $0.key < $1.key }.map { .init(.string($0.key), .variant($0.value)) }),
                  decodes: { message in try decodes(try message.arguments([String: Value].self)) })
    }

    /// A list of `a{sv}` (a reply's `aa{sv}`), read back as one.
    init(_ name: String, items: Value, decodes: @escaping @Sendable ([[String: Value]]) throws -> Bool) {
        self.init(name, value: items, decodes: { message in try decodes(try message.arguments([[String: Value]].self)) })
    }
}

/// The golden files: how a case's bytes are written down, read and compared.
enum GoldenWire {
    /// Set `GOLDEN_RECORD=1` to write the files anew from the values (docs/test-harness.md).
    static var recording: Bool { ProcessInfo.processInfo.environment["GOLDEN_RECORD"] == "1" }

    static func path(_ group: String) -> String { SourceTree.path("Tests/Fixtures/golden-wire/\(group).txt") }

    /// `value` marshalled as the only argument of a message, header and body.
    static func message(_ value: Value) throws -> [UInt8] {
        try Message.payload { try $0.write(value) }.readAll(limit: Message.maximumPayloadLength)
    }

    /// The body of a marshalled little-endian message: after the fixed header (16 bytes) and
    /// its fields (their length at byte 12), aligned to 8.
    static func body(_ message: [UInt8]) throws -> [UInt8] {
        try #require(message.first == UInt8(ascii: "l"), "the golden files are little-endian")
        let fields = (12..<16).reversed().reduce(0) { $0 << 8 | Int(message[$1]) }
        return Array(message[((16 + fields + 7) & ~7)...])
    }

    /// A case as its golden file holds it: a line `== name signature`, then the body in hex,
    /// 32 bytes a line.
    static func entry(_ golden: GoldenCase) throws -> String {
        let body = try body(try message(golden.value))
        let hex = body.map { String(format: "%02x", $0) }.joined()
        var lines = ["== \(golden.name) \(golden.value.type.signature) \(body.count)"]
        var start = hex.startIndex
        while start < hex.endIndex {
            let end = hex.index(start, offsetBy: 64, limitedBy: hex.endIndex) ?? hex.endIndex
            lines.append(String(hex[start..<end]))
            start = end
        }
        return lines.joined(separator: "\n")
    }

    /// The entries of a golden file, by case name.
    static func entries(in text: String) -> [String: String] {
        var entries: [String: String] = [:]
        for block in text.components(separatedBy: "\n== ").dropFirst() {
            let entry = "== " + block.trimmingCharacters(in: .newlines)
            let name = block.prefix { $0 != " " }
            entries[String(name)] = entry
        }
        return entries
    }

    static func file(_ group: String, _ cases: [GoldenCase]) throws -> String {
        "# Golden wire bytes of the \(group) values (Tests/AlmanacBusTests/Golden). Written by\n"
            + "# GOLDEN_RECORD=1 swift test --filter GoldenWireTests; see docs/test-harness.md.\n\n"
            + (try cases.map(entry).joined(separator: "\n\n")) + "\n"
    }
}
