import DBus
import Foundation
import Locking
import Synchronization
import TestHarness

/// A small `org.freedesktop.Notifications` server on a private bus, as a desktop runs one:
/// it records what it is asked to show, answers ids, and can say an action was invoked.
final class NotificationServer: Sendable {
    struct Shown: Sendable, Hashable {
        let id: UInt32
        let replaces: UInt32
        let summary: String
        let body: String
        let actions: [String]
    }

    static let path = ObjectPath("/org/freedesktop/Notifications")
    static let interface = InterfaceName("org.freedesktop.Notifications")

    let connection: Connection
    let shown = Locked<[Shown]>([])
    /// The ids the client asked to close, in order.
    let closed = Locked<[UInt32]>([])
    private let nextID = Atomic<UInt32>(1)

    init(address: String, capabilities: [String]) async throws {
        connection = try await Connection.connect(to: address)
        try connection.export([try Interface("org.freedesktop.Notifications", methods: [
            Method("GetCapabilities", outputs: [Argument("capabilities", .array(.string))]) { _, reply in
                try capabilities.encode(to: &reply)
            },
            Method("Notify", inputs: [Argument("app_name", .string), Argument("replaces_id", .uint32), Argument("app_icon", .string),
                                      Argument("summary", .string), Argument("body", .string), Argument("actions", .array(.string)),
                                      Argument("hints", .dictionary(key: .string, value: .variant)), Argument("expire_timeout", .int32)],
                   outputs: [Argument("id", .uint32)]) { call, reply in
                let (_, replaces, _, summary, body, actions, _, _) = try call.arguments(
                    String.self, UInt32.self, String.self, String.self, String.self, [String].self, [String: Value].self, Int32.self)
                try reply.write(self.record(replaces: replaces, summary: summary, body: body, actions: actions))
            },
            Method("CloseNotification", inputs: [Argument("id", .uint32)]) { call, _ in
                let id = try call.arguments(UInt32.self)
                self.closed.withLock { $0.append(id) }
            },
            Method("GetServerInformation", outputs: [Argument("name", .string), Argument("vendor", .string), Argument("version", .string), Argument("spec_version", .string)]) { _, reply in
                try reply.write(arguments: "test-notifications", "almanac", "1", "1.2")
            },
        ])], at: Self.path)
        _ = try await connection.requestName(BusName("org.freedesktop.Notifications"), flags: .doNotQueue)
    }

    private func record(replaces: UInt32, summary: String, body: String, actions: [String]) -> UInt32 {
        let id = replaces != 0 ? replaces : nextID.add(1, ordering: .relaxed).oldValue
        shown.withLock { $0.append(Shown(id: id, replaces: replaces, summary: summary, body: body, actions: actions)) }
        return id
    }

    /// Says the user clicked `action` on notification `id`.
    func invoke(_ action: String, on id: UInt32) throws {
        try connection.emit(path: Self.path, interface: Self.interface, signal: MemberName("ActionInvoked"), arguments: id, action)
    }

    /// Waits until `count` notifications were shown.
    func waitForNotifications(_ count: Int, timeout: Duration = .seconds(20)) async -> [Shown] {
        await eventually(timeout: timeout) { shown.withLock { $0.count } >= count }
        return shown.withLock { $0 }
    }
}
