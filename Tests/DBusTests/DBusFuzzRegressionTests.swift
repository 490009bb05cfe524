@testable import DBus
import Foundation
import TestHarness
import Testing

/// D-Bus messages in their wire form, as `make fuzz` feeds them to `Message(marshalled:)`:
/// the inputs it saved (Tests/Fixtures/fuzz/dbus) and hand-made broken ones are refused or
/// read, never a crash.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DBusFuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz/dbus")

    static var saved: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { !$0.hasSuffix(".md") }.sorted()
    }

    /// What the fuzz target does with one input.
    static func exercise(_ bytes: [UInt8]) {
        if let message = try? Message(marshalled: bytes) {
            _ = (message.type, message.path, message.interface, message.member, message.sender, message.signature)
            _ = try? message.values()
            _ = try? message.marshalled()
        }
        if let text = String(validating: bytes.prefix(300), as: UTF8.self), let signature = try? Signature(text) {
            _ = signature.types
        }
    }

    @Test func thereAreSavedInputs() {
        #expect(!Self.saved.isEmpty, "no inputs under \(Self.folder.path)")
    }

    @Test(arguments: saved) func savedInputsAreReadOrRefused(name: String) throws {
        let bytes = Array(try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        Self.exercise(bytes)
        // Seeds are messages captured off a bus: they must be read and written back the same.
        if name.hasPrefix("seed-") {
            let message = try Message(marshalled: bytes)
            #expect(try message.marshalled() == Array(bytes.prefix(try message.marshalled().count)))
        }
    }

    @Test func aMessageReadsBackFromItsWireForm() throws {
        let message = try Message.methodCall(destination: BusName("org.almanac.Almanac1"), path: ObjectPath("/org/almanac/Almanac1"),
                                             interface: InterfaceName("org.almanac.Document1"), member: "Submit")
        let change: [String: Value] = ["units": .string("imperial"), "locations": .array(.string, [.string("Oslo")])]
        try message.write { try $0.write(arguments: change) }
        let bytes = try message.marshalled()
        let again = try Message(marshalled: bytes)
        #expect(again.member?.rawValue == "Submit")
        #expect(again.signature.rawValue == "a{sv}")
        #expect(try again.arguments([String: Value].self) == change)
        #expect(try again.marshalled() == bytes)
    }

    @Test func brokenWireFormsAreRefused() throws {
        let good = try {
            try Message.signal(path: ObjectPath("/a"), interface: InterfaceName("org.almanac.Test1"), member: "T") {
                try $0.write(arguments: "payload")
            }.marshalled()
        }()
        var wrongEndian = good
        wrongEndian[0] = UInt8(ascii: "X")
        var hugeLength = good
        hugeLength[4...7] = [0xff, 0xff, 0xff, 0x7f]
        var badType = good
        badType[1] = 0
        for bytes in [[], [UInt8](repeating: 0, count: 16), Array(good.prefix(good.count - 1)), wrongEndian, hugeLength, badType] {
            #expect(throws: BusError.self) { _ = try Message(marshalled: bytes) }
        }
        // A longer buffer holds the message and something after it: the message is read.
        #expect(try Message(marshalled: good + [1, 2, 3]).arguments(String.self) == "payload")
    }
}
