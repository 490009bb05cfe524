@testable import DBus
internal import CDBus
import Testing

/// Signals and replies are built body first and addressed last (`Message.headerless`): the
/// message must be the one `dbus_message_new_signal` / `new_method_return` would have made.
struct BodyFirstTests {
    static let values: [Value] = [.uint64(42), .stringVariantDictionary(["kind": .string("units"), "units": .string("imperial")])]

    @Test func aSignalBuiltBodyFirstIsTheSameSignal() throws {
        let path = try ObjectPath("/org/almanac/Almanac1/weather/views/12")
        let interface = try InterfaceName("org.almanac.View1")
        let member = try MemberName("Updated")
        let destination = try BusName(":1.234")
        let usual = try Message.signal(path: path, interface: interface, member: member)
        try usual.setDestination(destination)
        try usual.write { try $0.write(Self.values) }
        let bodyFirst = try Message.headerless(DBUS_MESSAGE_TYPE_SIGNAL)
        try bodyFirst.write { try $0.write(Self.values) }
        try bodyFirst.addressSignal(path: path, interface: interface, member: member, destination: destination)

        for message in [usual, bodyFirst] {
            #expect(message.type == .signal)
            #expect(message.path == path && message.interface == interface && message.member == member)
            #expect(message.destination == destination)
            #expect(message.signature.rawValue == "ta{sv}")
            #expect(!message.expectsReply)
            #expect(try message.values() == Self.values)
        }
        // Its wire form reads back as the same signal (libdbus validates every byte of it).
        let again = try Message(marshalled: bodyFirst.marshalled())
        #expect(again.path == path && again.member == member && again.destination == destination)
        #expect(try again.values() == Self.values)
        // A broadcast has no destination.
        let broadcast = try Message.headerless(DBUS_MESSAGE_TYPE_SIGNAL)
        try broadcast.addressSignal(path: path, interface: interface, member: member, destination: nil)
        #expect(broadcast.destination == nil)
    }

    @Test func aReplyBuiltBodyFirstIsTheSameReply() throws {
        let call = try Message.methodCall(destination: BusName("org.almanac.Almanac1"), path: ObjectPath("/org/almanac/Almanac1/weather"),
                                          interface: InterfaceName("org.almanac.Document1"), member: MemberName("Submit"))
        dbus_message_set_serial(call.raw, 77)
        _ = dbus_message_set_sender(call.raw, ":1.9")
        let usual = try call.makeReply()
        try usual.write { try $0.write(UInt64(5)) }
        let bodyFirst = try Message.headerless(DBUS_MESSAGE_TYPE_METHOD_RETURN)
        try bodyFirst.write { try $0.write(UInt64(5)) }
        try bodyFirst.addressReply(to: call)
        for message in [usual, bodyFirst] {
            #expect(message.type == .methodReturn)
            #expect(message.replySerial == 77)
            #expect(message.destination?.rawValue == ":1.9")
            #expect(message.signature.rawValue == "t")
            #expect(!message.expectsReply)
            #expect(try message.arguments(UInt64.self) == 5)
        }
    }
}
