import CDBus
@testable import DBus
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct SignatureTests {
    @Test(arguments: ["", "s", "ta{sv}", "a{oa{sa{sv}}}", "(i(s(y)))", "aaai", "v", "h", "a(sv)", "ybnqiuxtdsogh"])
    func acceptsValidSignatures(_ text: String) throws {
        #expect(try Signature(text).rawValue == text)
    }

    @Test(arguments: ["a", "()", "(", ")", "{sv}", "a{vs}", "a{s}", "a{svs}", "a{(i)s}", "r", "e", "m", "*", "z", "(i", "ii)", "a{sv"])
    func rejectsInvalidSignatures(_ text: String) {
        #expect(throws: BusError.self) { try Signature(text) }
    }

    @Test func parsesIntoTypes() throws {
        let types = Signature("ta{sv}(ia(s))").types
        #expect(types == [.uint64, .dictionary(key: .string, value: .variant), .structure([.int32, .array(.structure([.string]))])])
        #expect(types.map(\.signature).joined() == "ta{sv}(ia(s))")
    }

    @Test func enforcesTheNestingLimits() throws {
        let arrays32 = String(repeating: "a", count: 32) + "i"
        let arrays33 = String(repeating: "a", count: 33) + "i"
        #expect(Signature.isValid(arrays32))
        #expect(!Signature.isValid(arrays33))
        let structs32 = String(repeating: "(", count: 32) + "i" + String(repeating: ")", count: 32)
        let structs33 = String(repeating: "(", count: 33) + "i" + String(repeating: ")", count: 33)
        #expect(Signature.isValid(structs32))
        #expect(!Signature.isValid(structs33))
        #expect(Signature.isValid(String(repeating: "i", count: 255)))
        #expect(!Signature.isValid(String(repeating: "i", count: 256)))
    }

    @Test func agreesWithLibdbusOnRandomSignatures() {
        var generator = SeededGenerator(seed: 7)
        let alphabet = Array("ybnqiuxtdsoghva(){}ar".utf8)
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...10, using: &generator)
            let text = String(decoding: (0..<length).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
            var error = CDBus.DBusError()
            dbus_error_init(&error)
            let libdbus = dbus_signature_validate(text, &error) != 0
            dbus_error_free(&error)
            #expect(Signature.isValid(text) == libdbus, "signature \(text)")
        }
    }
}
