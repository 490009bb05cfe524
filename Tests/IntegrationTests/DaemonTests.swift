import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct DaemonTests {
    static let weatherPath = BusContract.documentPath(.weather)

    /// `Submit` is answered once its change is on disk (a deferred reply): clients nobody here
    /// wrote get the revision or a clear error, and see the change after the answer.
    @Test func otherClientsSubmitAndAreAnswered() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let submitted = try await gdbusCall(on: bus, Self.weatherPath, BusContract.documentInterface, BusContract.Document1.submit.name, ["{'units': <'imperial'>}"])
        #expect(submitted.status == 0, "\(submitted.errorOutput)")
        #expect(submitted.output == "(uint64 1,)\n", "\(submitted.output)")
        let refused = try await busctlCall(on: bus, Self.weatherPath, BusContract.documentInterface, BusContract.Document1.submit.name,
                                           ["a{sv}", "1", "units", "s", "kelvin"])
        #expect(refused.status != 0)
        #expect(refused.errorOutput.contains("'units' must be \"metric\" or \"imperial\", not \"kelvin\""), "\(refused.errorOutput)")
        let again = try await busctlCall(on: bus, Self.weatherPath, BusContract.documentInterface, BusContract.Document1.submit.name,
                                         ["a{sv}", "1", "units", "s", "metric"])
        #expect(again.output == "t 2\n", "\(again.output) \(again.errorOutput)")
        let revision = try await busctlGetProperty(on: bus, Self.weatherPath, BusContract.Document1.revision)
        #expect(revision.output == "t 2\n", "\(revision.output) \(revision.errorOutput)")
        _ = daemon.stop()
    }

    @Test func exportsTheContractAndEveryObjectIntrospects() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let view = try await gdbusCall(on: bus, Self.weatherPath, BusContract.documentInterface, BusContract.Document1.addView.name, ["{'location': <'Berlin'>}"])
        #expect(view.status == 0, "\(view.errorOutput)")
        #expect(view.output == "(objectpath '\(BusContract.viewPath(.weather, 1))',)\n")
        let tree = try await Tool.runDetached("busctl", ["--address=\(bus.address)", "tree", BusContract.serviceName.rawValue])
        #expect(tree.status == 0)
        for path in [BusContract.rootPath, BusContract.documentPath(.weather), BusContract.documentPath(.podcasts)] {
            // (The gdbus view above left with its process; so views are introspected in the CLI test.)
            let introspection = try await gdbusIntrospect(on: bus, path)
            #expect(introspection.status == 0, "\(path): \(introspection.errorOutput)")
        }
        let root = try await gdbusIntrospect(on: bus, BusContract.rootPath)
        #expect(root.output.contains("interface org.freedesktop.DBus.ObjectManager"))
        #expect(root.output.contains("readonly s Version = '0.1.0';"))
        let document = try await gdbusIntrospect(on: bus, Self.weatherPath)
        for member in ["GetState(out t revision,", "AddView(in  a{sv} options,", "RemoveView(in  o view);", "Submit(in  a{sv} change,",
                       "Refresh();", "Changed(t revision,", "readonly t Revision", "readonly b Loading", "readonly s LastError", "readonly u ViewCount",
                       "interface \(BusContract.weatherInterface)"] {
            #expect(document.output.contains(member), "missing \(member)")
        }
        _ = daemon.stop()
    }

    @Test func twoViewsHearTheSameChangeAndASubmitReachesBoth() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let first = try await AlmanacClient.connect(address: bus.address)
        let second = try await AlmanacClient.connect(address: bus.address)
        var streams: [SignalStream] = []
        var views: [ObjectPath] = []
        for client in [first, second] {
            streams.append(try await client.connection.signals(matching: BusContract.View1.updated.rule()))
            views.append(try await client.addView(.weather, options: ["location": .string("Paris")]))
        }
        #expect(views[0] != views[1])
        let revision = try await first.submit(.weather, ["units": .string("imperial")])
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
        await first.connection.close()
        await second.connection.close()
        _ = daemon.stop()
    }

    /// The view goes when the bus says its owner left (there is no periodic sweep to do it).
    /// No time limit beyond the harness's: on a loaded CI machine seconds can pass.
    @Test func aKilledWatcherLosesItsViewWhenTheBusSaysItLeft() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let observer = try await AlmanacClient.connect(address: bus.address)
        let watcher = try ChildProcess(URL(fileURLWithPath: Binaries.almanac), ["watch", "weather", "--location", "Berlin"], environment: bus.environment)
        #expect(try await eventually(every: .milliseconds(25)) { try await observer.property(BusContract.Document1.viewCount, of: .weather) == 1 })
        watcher.send(SIGKILL)
        watcher.wait()
        #expect(try await eventually(every: .milliseconds(10)) {
            try await observer.property(BusContract.Document1.viewCount, of: .weather) == 0
        })
        await observer.connection.close()
        _ = daemon.stop()
    }

    @Test func dbusMonitorSeesChangedBroadcasts() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let monitor = try Tool.Background("dbus-monitor", ["--address", bus.address, "type='signal',interface='\(BusContract.documentInterface)'"])
        let client = try await AlmanacClient.connect(address: bus.address)
        // dbus-monitor says nothing when it starts listening: submit until it has seen a change
        // of weather (the demo podcasts' first refresh may broadcast one of its own first).
        let weatherChanged = "path=\(Self.weatherPath); interface=\(BusContract.documentInterface); member=\(BusContract.Document1.changed.name)"
        var attempt = 0
        let seen = try await eventually(every: .zero) {
            _ = try await client.submit(.weather, ["units": .string(attempt % 2 == 0 ? "imperial" : "metric")])
            attempt += 1
            return await monitor.waitFor(weatherChanged, timeout: 0.5)
        }
        #expect(seen, "\(monitor.output.suffix(2_000))")
        monitor.stop()
        await client.connection.close()
        _ = daemon.stop()
    }

    @Test func badInputGetsClearErrorsAndChangesNothing() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let client = try await AlmanacClient.connect(address: bus.address)
        let other = try await AlmanacClient.connect(address: bus.address)
        func submit(_ change: [String: Value]) async throws -> BusError {
            try await #require(throws: BusError.self) { _ = try await client.submit(.weather, change) }
        }
        #expect(try await submit(["colour": .string("red")]).message == "Unknown weather submission key 'colour'; accepted: units, provider, locations, rainNotify, windUnit, precipitationUnit, weatherAlerts.")
        #expect(try await submit(["units": .int32(3)]).message == "'units' must be a string (s), not 'i'.")
        #expect(try await submit(["units": .string("kelvin")]).name == .invalidArgs)
        #expect(try await submit(["locations": .array(.string, [.string("")])]).message == "'locations' cannot be empty.")
        #expect(try await submit(["locations": .array(.string, [.string(String(repeating: "x", count: 1_000_000))])]).name == .invalidArgs)
        #expect(try await client.property(BusContract.Document1.revision, of: .weather) == 0)

        // The limit is in bytes: one grapheme of 60,001 scalars is refused too.
        let combining = "a" + String(repeating: "\u{301}", count: 60_000)
        let huge = try await #require(throws: BusError.self) { _ = try await client.addView(.weather, options: ["location": .string(combining)]) }
        #expect(huge.message.hasPrefix("'location' is 120001 bytes long"))

        let addView = try await #require(throws: BusError.self) { _ = try await client.addView(.weather, options: ["place": .string("Paris")]) }
        #expect(addView.name == .invalidArgs)
        let view = try await client.addView(.weather, options: ["location": .string("Paris")])
        let denied = try await #require(throws: BusError.self) {
            _ = try await other.connection.call(BusContract.serviceName, path: view, interface: BusContract.viewInterface, method: BusContract.View1.remove.name) { _ in }
        }
        #expect(denied.name == .accessDenied)
        let deniedRemove = try await #require(throws: BusError.self) { try await other.removeView(.weather, view) }
        #expect(deniedRemove.name == .accessDenied)
        let unknown = try await #require(throws: BusError.self) { try await client.removeView(.weather, BusContract.viewPath(.weather, 999)) }
        #expect(unknown.name == BusContract.noSuchView)
        #expect(try await client.property(BusContract.Document1.viewCount, of: .weather) == 1)

        // The cap on views per client.
        for _ in 1..<64 {
            _ = try await client.addView(.weather, options: [:])
        }
        let capped = try await #require(throws: BusError.self) { _ = try await client.addView(.weather, options: [:]) }
        #expect(capped.name == .limitsExceeded)
        await client.connection.close()
        await other.connection.close()
        #expect(daemon.stop() == 0, "the daemon survived the bad input and exits cleanly")
    }

    @Test func placesAreForgottenWhenTheirViewsGo() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let client = try await AlmanacClient.connect(address: bus.address)
        let observer = try await AlmanacClient.connect(address: bus.address)
        // The places the state holds a reading or a failure of.
        func placesHeld() async throws -> Int {
            let (_, state) = try await observer.state(of: .weather)
            return (state["readings"]?.stringKeyedEntries?.count ?? -1) + (state["failures"]?.stringKeyedEntries?.count ?? 0)
        }
        for index in 0..<30 {
            _ = try await client.addView(.weather, options: ["location": .string("1.\(index),2")])
        }
        // Every place was fetched first, so that the state has something to forget.
        #expect(try await eventually { try await placesHeld() == 30 })
        await client.connection.close()
        #expect(try await eventually { try await placesHeld() == 0 }, "the state still holds places nobody watches")
        await observer.connection.close()
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
        let client = try await AlmanacClient.connect(address: bus.address)
        let changes = try await client.connection.signals(matching: MatchRule(interface: .properties, member: MemberName("PropertiesChanged"), path: Self.weatherPath))
        let view = try await client.addView(.weather, options: ["location": .string("Atlantis")])
        _ = try await client.submit(.weather, ["units": .string("imperial")])
        _ = try await client.connection.call(BusContract.serviceName, path: view, interface: BusContract.viewInterface, method: BusContract.View1.setOptions.name,
                                             arguments: ["location": Value.string("Oslo")])
        var seen: [String: Value] = [:]
        var loadingValues: [Value] = []
        // The first failure announced (a place let go clears it again: see the LastError rule).
        var firstError: String?
        for await message in changes {
            let (interface, changed, _) = try message.arguments(String.self, [String: Value].self, [String].self)
            // The units submitted are announced on Weather1 (`Units`), in whatever order the fetches end.
            if interface == BusContract.weatherInterface.rawValue {
                #expect(changed["Units"] == .string("imperial"))
                continue
            }
            #expect(interface == BusContract.documentInterface.rawValue)
            seen.merge(changed) { $1 }
            if let loading = changed["Loading"] { loadingValues.append(loading) }
            if firstError == nil, let error = changed["LastError"]?.stringValue, !error.isEmpty { firstError = error }
            if seen["ViewCount"] != nil, seen["Revision"] != nil, firstError != nil, loadingValues.contains(.boolean(false)) { break }
        }
        #expect(seen["ViewCount"] == .uint32(1))
        #expect(firstError?.hasPrefix("Atlantis: The demo provider does not know") == true
                || firstError?.hasPrefix("Oslo: The demo provider does not know") == true)
        #expect(loadingValues.first == .boolean(true))
        await client.connection.close()
        _ = daemon.stop()
    }

    @Test func onlyTheOwnerMayChangeAViewsOptions() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let owner = try await AlmanacClient.connect(address: bus.address)
        let other = try await AlmanacClient.connect(address: bus.address)
        let view = try await owner.addView(.weather, options: ["location": .string("Paris")])
        func setOptions(_ options: [String: Value], by client: AlmanacClient) async throws {
            _ = try await client.connection.call(BusContract.serviceName, path: view, interface: BusContract.viewInterface,
                                                 method: BusContract.View1.setOptions.name, arguments: options)
        }
        let denied = try await #require(throws: BusError.self) { try await setOptions(["location": .string("Tokyo")], by: other) }
        #expect(denied.name == .accessDenied)
        try await setOptions(["location": .string("Tokyo")], by: owner)
        let options = try await owner.property(BusContract.View1.options, at: view)
        #expect(options.entries["location"] == .string("Tokyo"))
        await owner.connection.close()
        await other.connection.close()
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

    /// SIGTERM while the daemon's own refresh reads a stalled feed: the service group stops
    /// the read under way (it does not wait out the server), and a read cut short that way
    /// is not recorded as the feed's failure.
    @Test func aStopWhileAFeedStallsEndsPromptlyAndRecordsNoFailure() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.feeds()
        func fault(_ mode: String) throws { _ = try Data(contentsOf: server.baseURL.appendingPathComponent("fault/\(mode)")) }
        try fault("none")
        let first = try await RunningDaemon(bus: bus, .fixtures())
        #expect(try await almanac(["podcasts", "subscribe", server.baseURL.appendingPathComponent("flaky/rss2-itunes.xml").absoluteString], bus: bus).status == 0)
        #expect(first.stop() == 0)
        // Started again, the feed is due at once (a schedule is not kept across a restart).
        try fault("stall")
        defer { try? fault("none") }
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let client = try await AlmanacClient.connect(address: bus.address)
        #expect(await eventually { (try? await client.property(BusContract.Document1.loading, of: .podcasts)) == true })
        let start = ContinuousClock.now
        #expect(daemon.stop() == 0)
        #expect(start.duration(to: .now) < .seconds(5), "the stalled read (30 s) was not waited out")
        #expect(!daemon.log.contains("could not read a feed"), "\(daemon.log)")
    }

    @Test func aSecondDaemonOnTheSameBusRefusesToStart() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let result = try await RunningDaemon.run(on: bus, .offline, folder: "second")
        #expect(result.status == 1)
        let refusal = result.errorOutput.split(separator: "\n").compactMap(LogLine.init).first { $0.message.hasPrefix("Another almanacd already owns the name") }
        #expect(refusal?.prefix == "error" && refusal?.metadata["name"] == BusContract.serviceName.rawValue, "\(result.errorOutput)")
        _ = daemon.stop()
    }
}
