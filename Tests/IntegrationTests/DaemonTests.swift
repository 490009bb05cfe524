import DBus
import Foundation
import TestHarness
import Testing

@Suite(.timeLimit(.minutes(2))) struct DaemonTests {
    static let service = try! BusName("org.almanac.Almanac1")
    static let weatherPath = try! ObjectPath("/org/almanac/Almanac1/weather")
    static let document = try! InterfaceName("org.almanac.Document1")

    func property(_ connection: Connection, _ path: ObjectPath, _ name: String) async throws -> Value {
        try await connection.call(Self.service, path: path, interface: .properties, method: MemberName("Get"),
                                  arguments: "org.almanac.Document1", name).arguments(Value.self)
    }

    /// `gdbus call` of a weather document method with one argument in GVariant text.
    func gdbusCall(_ bus: PrivateBus, _ method: String, _ argument: String) async throws -> Tool.Result {
        try await Tool.runDetached("gdbus", ["call", "--address", bus.address, "--dest", "org.almanac.Almanac1",
                                             "--object-path", "/org/almanac/Almanac1/weather", "--method", "org.almanac.Document1.\(method)", argument])
    }

    /// `Submit` is answered once its change is on disk (a deferred reply): clients nobody here
    /// wrote get the revision or a clear error, and see the change after the answer.
    @Test func otherClientsSubmitAndAreAnswered() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let submitted = try await gdbusCall(bus, "Submit", "{'units': <'imperial'>}")
        #expect(submitted.status == 0, "\(submitted.errorOutput)")
        #expect(submitted.output == "(uint64 1,)\n", "\(submitted.output)")
        let refused = try await Tool.runDetached("busctl", ["--address=\(bus.address)", "call", "org.almanac.Almanac1", "/org/almanac/Almanac1/weather",
                                                             "org.almanac.Document1", "Submit", "a{sv}", "1", "units", "s", "kelvin"])
        #expect(refused.status != 0)
        #expect(refused.errorOutput.contains("'units' must be \"metric\" or \"imperial\", not \"kelvin\""), "\(refused.errorOutput)")
        let again = try await Tool.runDetached("busctl", ["--address=\(bus.address)", "call", "org.almanac.Almanac1", "/org/almanac/Almanac1/weather",
                                                           "org.almanac.Document1", "Submit", "a{sv}", "1", "units", "s", "metric"])
        #expect(again.output == "t 2\n", "\(again.output) \(again.errorOutput)")
        let revision = try await Tool.runDetached("busctl", ["--address=\(bus.address)", "get-property", "org.almanac.Almanac1", "/org/almanac/Almanac1/weather",
                                                           "org.almanac.Document1", "Revision"])
        #expect(revision.output == "t 2\n", "\(revision.output) \(revision.errorOutput)")
        _ = daemon.stop()
    }

    @Test func exportsTheContractAndEveryObjectIntrospects() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let view = try await gdbusCall(bus, "AddView", "{'location': <'Berlin'>}")
        #expect(view.status == 0, "\(view.errorOutput)")
        #expect(view.output == "(objectpath '/org/almanac/Almanac1/weather/views/1',)\n")
        let tree = try await Tool.runDetached("busctl", ["--address=\(bus.address)", "tree", "org.almanac.Almanac1"])
        #expect(tree.status == 0)
        for path in ["/org/almanac/Almanac1", "/org/almanac/Almanac1/weather", "/org/almanac/Almanac1/podcasts"] {
            // (The gdbus view above left with its process; so views are introspected in the CLI test.)
            let introspection = try await Tool.runDetached("gdbus", ["introspect", "--address", bus.address, "--dest", "org.almanac.Almanac1", "--object-path", path])
            #expect(introspection.status == 0, "\(path): \(introspection.errorOutput)")
        }
        let root = try await Tool.runDetached("gdbus", ["introspect", "--address", bus.address, "--dest", "org.almanac.Almanac1", "--object-path", "/org/almanac/Almanac1"])
        #expect(root.output.contains("interface org.freedesktop.DBus.ObjectManager"))
        #expect(root.output.contains("readonly s Version = '0.1.0';"))
        let document = try await Tool.runDetached("gdbus", ["introspect", "--address", bus.address, "--dest", "org.almanac.Almanac1", "--object-path", "/org/almanac/Almanac1/weather"])
        for member in ["GetState(out t revision,", "AddView(in  a{sv} options,", "RemoveView(in  o view);", "Submit(in  a{sv} change,",
                       "Refresh();", "Changed(t revision,", "readonly t Revision", "readonly b Loading", "readonly s LastError", "readonly u ViewCount",
                       "interface org.almanac.Weather1"] {
            #expect(document.output.contains(member), "missing \(member)")
        }
        _ = daemon.stop()
    }

    @Test func twoViewsHearTheSameChangeAndASubmitReachesBoth() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let first = try await Connection.connect(to: bus.address)
        let second = try await Connection.connect(to: bus.address)
        var streams: [SignalStream] = []
        var views: [ObjectPath] = []
        for client in [first, second] {
            streams.append(try await client.signals(matching: MatchRule(interface: InterfaceName("org.almanac.View1"), member: MemberName("Updated"))))
            let reply = try await client.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("AddView"),
                                              arguments: ["location": Value.string("Paris")])
            views.append(try reply.arguments(ObjectPath.self))
        }
        #expect(views[0] != views[1])
        let revision = try await first.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("Submit"),
                                            arguments: ["units": Value.string("imperial")]).arguments(UInt64.self)
        for (index, stream) in streams.enumerated() {
            var heardUnits = false
            for await message in stream {
                #expect(message.path == views[index], "a view hears only its own updates")
                let (updateRevision, data) = try message.arguments(UInt64.self, [String: Value].self)
                if data["kind"] == .string("units") {
                    #expect(updateRevision == revision)
                    #expect(data["units"] == .string("imperial"))
                    heardUnits = true
                    break
                }
            }
            #expect(heardUnits)
        }
        await first.close()
        await second.close()
        _ = daemon.stop()
    }

    @Test func aKilledWatcherLosesItsViewWithinASecond() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let observer = try await Connection.connect(to: bus.address)
        let watcher = try ChildProcess(URL(fileURLWithPath: Binaries.almanac), ["watch", "weather", "--location", "Berlin"], environment: bus.environment)
        #expect(try await eventually(every: .milliseconds(25)) { try await property(observer, Self.weatherPath, "ViewCount") == .uint32(1) })
        watcher.send(SIGKILL)
        watcher.wait()
        #expect(try await eventually(timeout: .seconds(5), every: .milliseconds(10)) {
            try await property(observer, Self.weatherPath, "ViewCount") == .uint32(0)
        })
        await observer.close()
        _ = daemon.stop()
    }

    @Test func dbusMonitorSeesChangedBroadcasts() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let monitor = try Tool.Background("dbus-monitor", ["--address", bus.address, "type='signal',interface='org.almanac.Document1'"])
        let client = try await Connection.connect(to: bus.address)
        // dbus-monitor says nothing when it starts listening: submit until it has seen a change.
        var attempt = 0
        let seen = try await eventually(timeout: .seconds(10), every: .zero) {
            _ = try await client.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("Submit"),
                                      arguments: ["units": Value.string(attempt % 2 == 0 ? "imperial" : "metric")])
            attempt += 1
            return await monitor.waitFor("member=Changed", timeout: 0.5)
        }
        #expect(seen)
        #expect(monitor.output.contains("path=/org/almanac/Almanac1/weather; interface=org.almanac.Document1; member=Changed"))
        monitor.stop()
        await client.close()
        _ = daemon.stop()
    }

    @Test func badInputGetsClearErrorsAndChangesNothing() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let client = try await Connection.connect(to: bus.address)
        let other = try await Connection.connect(to: bus.address)
        func submit(_ change: [String: Value]) async throws -> BusError {
            try await #require(throws: BusError.self) {
                _ = try await client.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("Submit"), arguments: change)
            }
        }
        #expect(try await submit(["colour": .string("red")]).message == "Unknown weather submission key 'colour'; accepted: units, locations.")
        #expect(try await submit(["units": .int32(3)]).message == "'units' must be a string (s), not 'i'.")
        #expect(try await submit(["units": .string("kelvin")]).name == .invalidArgs)
        #expect(try await submit(["locations": .array(.string, [.string("")])]).message == "'locations' cannot be empty.")
        #expect(try await submit(["locations": .array(.string, [.string(String(repeating: "x", count: 1_000_000))])]).name == .invalidArgs)
        #expect(try await property(client, Self.weatherPath, "Revision") == .uint64(0))

        // The limit is in bytes: one grapheme of 60,001 scalars is refused too.
        let combining = "a" + String(repeating: "\u{301}", count: 60_000)
        let huge = try await #require(throws: BusError.self) {
            _ = try await client.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("AddView"), arguments: ["location": Value.string(combining)])
        }
        #expect(huge.message.hasPrefix("'location' is 120001 bytes long"))

        let addView = try await #require(throws: BusError.self) {
            _ = try await client.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("AddView"), arguments: ["place": Value.string("Paris")])
        }
        #expect(addView.name == .invalidArgs)
        let view = try await client.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("AddView"),
                                         arguments: ["location": Value.string("Paris")]).arguments(ObjectPath.self)
        let denied = try await #require(throws: BusError.self) {
            _ = try await other.call(Self.service, path: view, interface: InterfaceName("org.almanac.View1"), method: MemberName("Remove")) { _ in }
        }
        #expect(denied.name == .accessDenied)
        let deniedRemove = try await #require(throws: BusError.self) {
            _ = try await other.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("RemoveView"), arguments: view)
        }
        #expect(deniedRemove.name == .accessDenied)
        let unknown = try await #require(throws: BusError.self) {
            _ = try await client.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("RemoveView"),
                                      arguments: try ObjectPath("/org/almanac/Almanac1/weather/views/999"))
        }
        #expect(unknown.name.rawValue == "org.almanac.Error.NoSuchView")
        #expect(try await property(client, Self.weatherPath, "ViewCount") == .uint32(1))

        // The cap on views per client.
        for _ in 1..<64 {
            _ = try await client.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("AddView"), arguments: [String: Value]())
        }
        let capped = try await #require(throws: BusError.self) {
            _ = try await client.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("AddView"), arguments: [String: Value]())
        }
        #expect(capped.name == .limitsExceeded)
        await client.close()
        await other.close()
        #expect(daemon.stop() == 0, "the daemon survived the bad input and exits cleanly")
    }

    @Test func placesAreForgottenWhenTheirViewsGo() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let client = try await Connection.connect(to: bus.address)
        let observer = try await Connection.connect(to: bus.address)
        // The places the state holds a reading or a failure of.
        func placesHeld() async throws -> Int {
            let (_, state) = try await observer.call(Self.service, path: Self.weatherPath, interface: Self.document,
                                                     method: MemberName("GetState")) { _ in }.arguments(UInt64.self, [String: Value].self)
            return (state["readings"]?.stringKeyedEntries?.count ?? -1) + (state["failures"]?.stringKeyedEntries?.count ?? 0)
        }
        for index in 0..<30 {
            _ = try await client.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("AddView"),
                                      arguments: ["location": Value.string("1.\(index),2")])
        }
        // Every place was fetched first, so that the state has something to forget.
        #expect(try await eventually { try await placesHeld() == 30 })
        await client.close()
        #expect(try await eventually { try await placesHeld() == 0 }, "the state still holds places nobody watches")
        await observer.close()
        _ = daemon.stop()
    }

    @Test func refreshIntervalsOutOfRangeAreRefused() async throws {
        let bus = try PrivateBus()
        let result = try await RunningDaemon.run(on: bus, .offline.with("--weather-interval", "1e19"))
        #expect(result.status == 64)
        #expect(result.errorOutput.contains("Refresh intervals go from 0.1 seconds"))
        let badURL = try await RunningDaemon.run(on: bus, .fixtures().with("--weather-url", "ftp://example"))
        #expect(badURL.status == 64)
        #expect(badURL.errorOutput.contains("--weather-url needs an http or https URL"))
    }

    @Test func propertiesAnnounceThemselves() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let client = try await Connection.connect(to: bus.address)
        let changes = try await client.signals(matching: MatchRule(interface: .properties, member: MemberName("PropertiesChanged"), path: Self.weatherPath))
        func call(_ method: String, _ argument: [String: Value]) async throws -> Message {
            try await client.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName(method), arguments: argument)
        }
        let view = try await call("AddView", ["location": .string("Atlantis")]).arguments(ObjectPath.self)
        _ = try await call("Submit", ["units": .string("imperial")])
        _ = try await client.call(Self.service, path: view, interface: InterfaceName("org.almanac.View1"), method: MemberName("SetOptions"),
                                  arguments: ["location": Value.string("Oslo")])
        var seen: [String: Value] = [:]
        var loadingValues: [Value] = []
        for await message in changes {
            let (interface, changed, _) = try message.arguments(String.self, [String: Value].self, [String].self)
            #expect(interface == "org.almanac.Document1")
            seen.merge(changed) { $1 }
            if let loading = changed["Loading"] { loadingValues.append(loading) }
            if seen["ViewCount"] != nil, seen["Revision"] != nil, seen["LastError"] != nil, loadingValues.contains(.boolean(false)) { break }
        }
        #expect(seen["ViewCount"] == .uint32(1))
        #expect(seen["LastError"]?.stringValue?.hasPrefix("Atlantis: The demo provider does not know") == true
                || seen["LastError"]?.stringValue?.hasPrefix("Oslo: The demo provider does not know") == true)
        #expect(loadingValues.first == .boolean(true))
        await client.close()
        _ = daemon.stop()
    }

    @Test func onlyTheOwnerMayChangeAViewsOptions() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let owner = try await Connection.connect(to: bus.address)
        let other = try await Connection.connect(to: bus.address)
        let view = try await owner.call(Self.service, path: Self.weatherPath, interface: Self.document, method: MemberName("AddView"),
                                        arguments: ["location": Value.string("Paris")]).arguments(ObjectPath.self)
        let denied = try await #require(throws: BusError.self) {
            _ = try await other.call(Self.service, path: view, interface: InterfaceName("org.almanac.View1"), method: MemberName("SetOptions"),
                                     arguments: ["location": Value.string("Tokyo")])
        }
        #expect(denied.name == .accessDenied)
        _ = try await owner.call(Self.service, path: view, interface: InterfaceName("org.almanac.View1"), method: MemberName("SetOptions"),
                                 arguments: ["location": Value.string("Tokyo")])
        let options = try await owner.call(Self.service, path: view, interface: .properties, method: MemberName("Get"),
                                           arguments: "org.almanac.View1", "Options").arguments(Value.self)
        #expect(options.stringKeyedEntries?["location"]?.unwrapped == .string("Tokyo"))
        await owner.close()
        await other.close()
        _ = daemon.stop()
    }

    @Test func exitsZeroOnSIGTERMAndNonZeroWhenTheBusGoes() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        #expect(daemon.stop() == 0)
        let second = try await RunningDaemon(bus: bus)
        bus.kill()
        #expect(second.process.wait() == 1)
    }

    @Test func aSecondDaemonOnTheSameBusRefusesToStart() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let result = try await RunningDaemon.run(on: bus, .offline, folder: "second")
        #expect(result.status == 1)
        #expect(result.errorOutput.contains("Another almanacd already owns org.almanac.Almanac1"))
        _ = daemon.stop()
    }
}
