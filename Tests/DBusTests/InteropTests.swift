import DBus
import Synchronization
import TestHarness
import Testing

/// The exported test object, driven by D-Bus tools and libraries nobody on the team wrote.
@Suite(.onTestThreads, .timeLimit(.hang)) struct InteropTests {
    static let serviceName = "org.almanac.TestService"

    func start() async throws -> BusPair {
        let pair = try await BusPair.start()
        #expect(try await pair.server.requestName(BusName(Self.serviceName)) == .primaryOwner)
        return pair
    }

    @Test func busctlCallsIntrospectsAndSetsProperties() async throws {
        let pair = try await start()
        let address = "--address=\(pair.bus.address)"
        let call = try await Tool.runDetached("busctl", [address, "call", Self.serviceName, "/org/almanac/Test", "org.almanac.Test1", "Echo", "s", "from busctl"])
        #expect(call.status == 0, "\(call.errorOutput)")
        #expect(call.output == "s \"from busctl\"\n")

        let introspect = try await Tool.runDetached("busctl", [address, "introspect", Self.serviceName, "/org/almanac/Test"])
        #expect(introspect.status == 0, "\(introspect.errorOutput)")
        #expect(introspect.output.contains(".Add"))
        #expect(introspect.output.contains(".Label"))
        #expect(introspect.output.contains(".Tick"))

        let tree = try await Tool.runDetached("busctl", [address, "tree", Self.serviceName])
        #expect(tree.status == 0, "\(tree.errorOutput)")
        #expect(tree.output.contains("/org/almanac/Test"))

        let set = try await Tool.runDetached("busctl", [address, "set-property", Self.serviceName, "/org/almanac/Test", "org.almanac.Test1", "Label", "s", "set by busctl"])
        #expect(set.status == 0, "\(set.errorOutput)")
        let get = try await Tool.runDetached("busctl", [address, "get-property", Self.serviceName, "/org/almanac/Test", "org.almanac.Test1", "Label"])
        #expect(get.output == "s \"set by busctl\"\n")

        let wrong = try await Tool.runDetached("busctl", [address, "call", Self.serviceName, "/org/almanac/Test", "org.almanac.Test1", "Add", "s", "x"])
        #expect(wrong.status != 0)
        #expect(wrong.errorOutput.contains("Add takes arguments of type 'ii', not 's'."))
        await pair.close()
    }

    @Test func gdbusCallsAndIntrospects() async throws {
        let pair = try await start()
        let common = ["--address", pair.bus.address, "--dest", Self.serviceName, "--object-path", "/org/almanac/Test"]
        let add = try await Tool.runDetached("gdbus", ["call"] + common + ["--method", "org.almanac.Test1.Add", "2", "40"])
        #expect(add.status == 0, "\(add.errorOutput)")
        #expect(add.output == "(int64 42,)\n")

        let variant = try await Tool.runDetached("gdbus", ["call"] + common + ["--method", "org.almanac.Test1.EchoValue", "<{'k': <[1, 2]>}>"])
        #expect(variant.output == "(<{'k': <[1, 2]>}>,)\n")

        let introspect = try await Tool.runDetached("gdbus", ["introspect"] + common)
        #expect(introspect.status == 0, "\(introspect.errorOutput)")
        #expect(introspect.output.contains("Add(in  i a,"))
        #expect(introspect.output.contains("readwrite s Label"))
        #expect(introspect.output.contains("Tick(u count);"))

        let recursive = try await Tool.runDetached("gdbus", ["introspect", "--address", pair.bus.address, "--dest", Self.serviceName, "--object-path", "/", "--recurse"])
        #expect(recursive.status == 0, "\(recursive.errorOutput)")
        #expect(recursive.output.contains("interface org.almanac.Test1"))

        let failing = try await Tool.runDetached("gdbus", ["call"] + common + ["--method", "org.almanac.Test1.Fail", "why not"])
        #expect(failing.status != 0)
        #expect(failing.errorOutput.contains("org.almanac.Error.Test"))
        #expect(failing.errorOutput.contains("why not"))
        await pair.close()
    }

    @Test func dbusSendCalls() async throws {
        let pair = try await start()
        let echo = try await Tool.runDetached("dbus-send", ["--bus=\(pair.bus.address)", "--print-reply", "--dest=\(Self.serviceName)",
                                                            "/org/almanac/Test", "org.almanac.Test1.Echo", "string:from dbus-send"])
        #expect(echo.status == 0, "\(echo.errorOutput)")
        #expect(echo.output.contains("string \"from dbus-send\""))
        await pair.close()
    }

    @Test func dbusMonitorSeesSignals() async throws {
        let pair = try await start()
        let monitor = try Tool.Background("dbus-monitor", ["--address", pair.bus.address, "type='signal',interface='org.almanac.Test1'"])
        // dbus-monitor says nothing when it starts listening: emit until it has seen one.
        let seen = try await eventually(every: .zero) {
            _ = try await pair.call("Emit") { try $0.write(UInt32(1)) }
            return await monitor.waitFor("member=Tick", timeout: 0.5)
        }
        #expect(seen)
        _ = try await pair.call("Emit") { try $0.write(UInt32(3)) }
        let total = pair.object.counter.load(ordering: .relaxed)
        #expect(await monitor.waitFor("uint32 \(total)"))
        let output = monitor.output
        #expect(output.contains("interface=org.almanac.Test1; member=Tick"))
        #expect(output.contains("uint32 \(total - 2)\n") && output.contains("uint32 \(total - 1)\n"))
        monitor.stop()
        await pair.close()
    }

    @Test func pythonDBusCallsAndReadsProperties() async throws {
        let pair = try await start()
        let script = """
            import dbus
            bus = dbus.bus.BusConnection("\(pair.bus.address)")
            test = bus.get_object("\(Self.serviceName)", "/org/almanac/Test")
            print(test.Echo("from python", dbus_interface="org.almanac.Test1"))
            print(test.Get("org.almanac.Test1", "Label", dbus_interface="org.freedesktop.DBus.Properties"))
            try:
                test.Fail("python asked", dbus_interface="org.almanac.Test1")
            except dbus.DBusException as error:
                print(error.get_dbus_name(), error.get_dbus_message())
            """
        // Debian's python3-dbus belongs to the system Python, whatever else is first on PATH.
        let result = try await Tool.runDetached("/usr/bin/python3", ["-c", script])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output == "from python\ninitial\norg.almanac.Error.Test python asked\n")
        await pair.close()
    }
}
