internal import CDBus
@testable import DBus
import TestHarness
import Testing

/// Signals and replies are built body first and addressed last (`Message.signal`, `reply`): the
/// message must be the one `dbus_message_new_signal` / `new_method_return` would have made.
@Suite(.onTestThreads, .timeLimit(.hang))
struct BodyFirstTests {
    static let values: [Value] = [.uint64(42), .stringVariantDictionary(["kind": .string("units"), "units": .string("imperial")])]

    @Test func aSignalBuiltBodyFirstIsTheSameSignal() throws {
        let path = ObjectPath("/org/almanac/Almanac1/weather/views/12")
        let interface = InterfaceName("org.almanac.View1")
        let member = MemberName("Updated")
        let destination = BusName(":1.234")
        // As libdbus makes it: header first.
        let usual = Message(taking: try #require(dbus_message_new_signal(path.rawValue, interface.rawValue, member.rawValue)))
        try usual.setDestination(destination)
        try usual.write { try $0.write(Self.values) }
        let bodyFirst = try Message.signal(path: path, interface: interface, member: member, destination: destination) { try $0.write(Self.values) }

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
        let broadcast = try Message.signal(path: path, interface: interface, member: member) { _ in }
        #expect(broadcast.destination == nil)
    }

    @Test func aReplyBuiltBodyFirstIsTheSameReply() throws {
        let call = try Message.methodCall(destination: BusName("org.almanac.Almanac1"), path: ObjectPath("/org/almanac/Almanac1/weather"),
                                          interface: InterfaceName("org.almanac.Document1"), member: "Submit")
        dbus_message_set_serial(call.raw, 77)
        _ = dbus_message_set_sender(call.raw, ":1.9")
        let usual = Message(taking: try #require(dbus_message_new_method_return(call.raw)))
        try usual.write { try $0.write(UInt64(5)) }
        let bodyFirst = try call.reply { try $0.write(UInt64(5)) }
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
