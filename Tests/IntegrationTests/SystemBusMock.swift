import DBus
import Foundation
import TestHarness

/// One of python-dbusmock's own templates (`logind`, `networkmanager`) serving on a private
/// bus that stands for the system bus, driven through its `org.freedesktop.DBus.Mock`
/// interface with gdbus, a client nobody here wrote.
final class SystemBusMock: Sendable {
    static let login1 = "org.freedesktop.login1"
    static let networkManager = "org.freedesktop.NetworkManager"

    let bus: PrivateBus
    let name: String
    let path: String
    private let process: Tool.Background

    /// Starts `template` on `bus` and waits until it owns `name`.
    init(_ template: String, name: String, path: String, on bus: PrivateBus) async throws {
        self.bus = bus
        self.name = name
        self.path = path
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = bus.address
        process = try Tool.Background("/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", template], environment: environment)
        let watcher = try await Connection.connect(to: bus.address)
        let owned = try await eventually { try await watcher.nameOwner(of: BusName(name)) != nil }
        await watcher.close()
        guard owned else { throw HarnessError(message: "python-dbusmock's \(template) template did not take \(name) (is python3-dbusmock installed? `make test` installs it)") }
    }

    /// logind's mock, at `/org/freedesktop/login1`.
    static func logind(on bus: PrivateBus) async throws -> SystemBusMock {
        try await SystemBusMock("logind", name: login1, path: "/org/freedesktop/login1", on: bus)
    }

    /// NetworkManager's mock (connected, global) with the `Metered` property it lacks added:
    /// `metered` is `NMMetered` (0 unknown, 1 yes, 2 no, 3 guess-yes, 4 guess-no).
    static func networkManager(on bus: PrivateBus, state: UInt32 = 70, metered: UInt32 = 2) async throws -> SystemBusMock {
        let mock = try await SystemBusMock("networkmanager", name: networkManager, path: "/org/freedesktop/NetworkManager", on: bus)
        try await mock.call("AddProperty", networkManager, "Metered", "<uint32 \(metered)>")
        if state != 70 { try await mock.call("SetGlobalConnectionState", "\(state)") }
        return mock
    }

    /// Calls a method of the mock's `org.freedesktop.DBus.Mock` interface, its arguments in
    /// gdbus's GVariant text.
    func call(_ method: String, _ arguments: String...) async throws {
        let result = try await Tool.runDetached("gdbus", ["call", "--address", bus.address, "--dest", name, "--object-path", path,
                                                          "--method", "org.freedesktop.DBus.Mock." + method] + arguments)
        guard result.status == 0 else { throw HarnessError(message: "\(method) on \(name): \(result.errorOutput)") }
    }

    /// logind says the machine goes to sleep (`true`) or has woken (`false`).
    func prepareForSleep(_ sleeping: Bool) async throws {
        try await call("EmitSignal", "org.freedesktop.login1.Manager", "PrepareForSleep", "b", "[<\(sleeping)>]")
    }

    /// NetworkManager's `State` (`NMState`: 20 disconnected, 70 connected global), with its `StateChanged`.
    func setState(_ state: UInt32) async throws {
        try await call("SetGlobalConnectionState", "\(state)")
    }

    /// NetworkManager's `Metered`, announced with `PropertiesChanged`.
    func setMetered(_ metered: UInt32) async throws {
        try await call("SetProperty", path, Self.networkManager, "Metered", "<uint32 \(metered)>")
    }

    deinit { process.stop() }
}
