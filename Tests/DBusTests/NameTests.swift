import CDBus
@testable import DBus
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct NameTests {
    @Test(arguments: ["/", "/org", "/org/almanac/Almanac1", "/a/b_c/D9", "/_"])
    func acceptsValidObjectPaths(_ text: String) throws {
        #expect(try ObjectPath(text).rawValue == text)
    }

    @Test(arguments: ["", "org", "//", "/org/", "/org//almanac", "/org.almanac", "/org-almanac", "/é", "/a\0b", " /a"])
    func rejectsInvalidObjectPaths(_ text: String) {
        #expect(throws: BusError.self) { try ObjectPath(text) }
        #expect(!ObjectPath.isValid(text))
    }

    @Test(arguments: ["org.almanac.Almanac1", "a.b", "_a._b", "A1.B2.C3"])
    func acceptsValidInterfaceNames(_ text: String) throws {
        #expect(try InterfaceName(text).rawValue == text)
        #expect(try ErrorName(text).rawValue == text)
    }

    @Test(arguments: ["", "org", "org.", ".org.a", "org..a", "1org.a", "org.1a", "org.al-manac", "org.a/b",
                      String(repeating: "a.", count: 128) + "a"])
    func rejectsInvalidInterfaceNames(_ text: String) {
        #expect(throws: BusError.self) { try InterfaceName(text) }
        #expect(throws: BusError.self) { try ErrorName(text) }
    }

    @Test(arguments: ["GetState", "_x", "a1", String(repeating: "m", count: 255)])
    func acceptsValidMemberNames(_ text: String) throws {
        #expect(try MemberName(text).rawValue == text)
    }

    @Test(arguments: ["", "1a", "Get.State", "Get-State", "Ünicode", String(repeating: "m", count: 256)])
    func rejectsInvalidMemberNames(_ text: String) {
        #expect(throws: BusError.self) { try MemberName(text) }
    }

    @Test(arguments: [":1.42", ":a.b", ":1-2.3", "org.almanac.Almanac1", "org.al-manac.x", "_a.b", "-a.b"])
    func acceptsValidBusNames(_ text: String) throws {
        #expect(try BusName(text).rawValue == text)
    }

    @Test(arguments: ["", ":", ":1", "org", "org.", "1org.a", "org.1a", ":1..2", "org.a b", "org.almanac.é"])
    func rejectsInvalidBusNames(_ text: String) {
        #expect(throws: BusError.self) { try BusName(text) }
    }

    @Test func rejectionSaysWhatWasWrongAndShowsTheInput() throws {
        let text = "/org/al manac"
        let error = try #require(throws: BusError.self) { try ObjectPath(text) }
        #expect(error.code == .invalidValue)
        #expect(error.name == .invalidArgs)
        #expect(error.message == "'/org/al manac' is not a valid D-Bus object path.")
    }

    /// A literal is a name without `try`, the same as the validated one.
    @Test func literalsAreNames() throws {
        let path: ObjectPath = "/org/almanac/Almanac1"
        let bus: BusName = "org.almanac.Almanac1"
        let interface: InterfaceName = "org.almanac.Document1"
        let member: MemberName = "GetState"
        let error: ErrorName = "org.almanac.Error.NoSuchView"
        let signature: Signature = "ta{sv}"
        #expect(path == (try ObjectPath(String("/org/almanac/Almanac1"))))
        #expect(bus == (try BusName(String("org.almanac.Almanac1"))))
        #expect(interface == (try InterfaceName(String("org.almanac.Document1"))))
        #expect(member == (try MemberName(String("GetState"))))
        #expect(error == (try ErrorName(String("org.almanac.Error.NoSuchView"))))
        #expect(signature.types == [.uint64, .dictionary(key: .string, value: .variant)])
    }

    /// An invalid literal is a programming error: it traps where it is first used, in the one
    /// place every name type shares, rather than being carried on as a bad name.
    @Test func anInvalidLiteralTraps() async {
        await #expect(processExitsWith: .failure) {
            let path: ObjectPath = "/org/al manac"
            _ = path
        }
        await #expect(processExitsWith: .failure) {
            let member: MemberName = "Get-State"
            _ = member
        }
    }

    /// Our rules must agree with libdbus's own validators on every string: a string we accept
    /// that libdbus would reject is a string that would abort the process.
    @Test func agreesWithLibdbusOnRandomStrings() {
        var generator = SeededGenerator(seed: 0xA1AA_AC00)
        let alphabet = Array("/._-:aZ9_/..::--".utf8) + [0xC3, 0xA9, 0x20, 0x00]
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...12, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(ObjectPath.isValid(text) == libdbusAccepts(text, dbus_validate_path), "path \(bytes)")
            #expect(InterfaceName.isValid(text) == libdbusAccepts(text, dbus_validate_interface), "interface \(bytes)")
            #expect(MemberName.isValid(text) == libdbusAccepts(text, dbus_validate_member), "member \(bytes)")
            #expect(ErrorName.isValid(text) == libdbusAccepts(text, dbus_validate_error_name), "error \(bytes)")
            // For unique names libdbus is laxer than the specification (it takes ":" and
            // ":1"); we follow the specification, so there we only check that we never accept
            // what libdbus would not.
            let busNameOK = libdbusAccepts(text, dbus_validate_bus_name)
            if text.hasPrefix(":") {
                #expect(!BusName.isValid(text) || busNameOK, "bus \(bytes)")
            } else {
                #expect(BusName.isValid(text) == busNameOK, "bus \(bytes)")
            }
        }
    }

    private func libdbusAccepts(
        _ text: String, _ validate: (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t
    ) -> Bool {
        // libdbus stops at NUL, and so would a C caller: a NUL makes the string invalid for us.
        if text.utf8.contains(0) { return false }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        return validate(text, &error) != 0
    }
}
