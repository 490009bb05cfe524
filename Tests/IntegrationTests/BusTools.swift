import AlmanacWire
import DBus
import TestHarness

// Command lines of D-Bus tools nobody on the team wrote (busctl, gdbus), aimed at the daemon
// on a private bus: the tests drive the daemon with them on purpose, the way users and
// scripts do. Names come from BusContract.

/// `busctl call <daemon> <path> <interface> <member> <signature> <arguments…>`; `options`
/// go before `call` (such as `--json=short`).
func busctlCall(on bus: PrivateBus, _ path: ObjectPath, _ interface: InterfaceName, _ member: MemberName,
                _ signatureAndArguments: [String], options: [String] = []) async throws -> Tool.Result {
    try await Tool.runDetached("busctl", ["--address=\(bus.address)"] + options + [
        "call", BusContract.serviceName.rawValue, path.rawValue, interface.rawValue, member.rawValue,
    ] + signatureAndArguments)
}

/// `busctl get-property <daemon> <path> <interface> <property>`.
func busctlGetProperty<T>(on bus: PrivateBus, _ path: ObjectPath, _ property: BusProperty<T>) async throws -> Tool.Result {
    try await Tool.runDetached("busctl", ["--address=\(bus.address)", "get-property", BusContract.serviceName.rawValue,
                                          path.rawValue, property.interface.rawValue, property.name.rawValue])
}

/// `gdbus call --dest <daemon> --object-path <path> --method <interface>.<member> <arguments…>`,
/// the arguments in GVariant text.
func gdbusCall(on bus: PrivateBus, _ path: ObjectPath, _ interface: InterfaceName, _ member: MemberName, _ arguments: [String]) async throws -> Tool.Result {
    try await Tool.runDetached("gdbus", ["call", "--address", bus.address, "--dest", BusContract.serviceName.rawValue,
                                         "--object-path", path.rawValue, "--method", "\(interface).\(member)"] + arguments)
}

/// `gdbus introspect --dest <daemon> --object-path <path>`.
func gdbusIntrospect(on bus: PrivateBus, _ path: ObjectPath) async throws -> Tool.Result {
    try await Tool.runDetached("gdbus", ["introspect", "--address", bus.address, "--dest", BusContract.serviceName.rawValue,
                                         "--object-path", path.rawValue])
}
