import AlmanacModels
import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct CLITests {
    @Test func statusWithoutADaemonSaysSoAndExits69() async throws {
        let bus = try PrivateBus()
        let result = try await almanac(["status"], bus: bus)
        #expect(result.status == 69)
        #expect(result.errorOutput.hasPrefix("almanac: almanacd is not running"))
        #expect(result.errorOutput.contains("systemctl --user start almanacd"))
    }

    @Test func statusReportsTheDaemon() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let result = try await almanac(["status"], bus: bus)
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("almanacd 0.1.0 is running as :1.") == true)
        #expect(lines.first?.hasSuffix("(provider: demo)") == true)
        #expect(lines.contains("  weather: revision 0, 0 views"))
        let json = try await almanac(["status", "--json"], bus: bus)
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(object?["version"] as? String == "0.1.0")
        #expect((object?["documents"] as? [[String: Any]])?.count == 2)
        _ = daemon.stop()
    }

    /// The daemon's demo weather is deterministic for a given seed (the preset's) and refresh
    /// count: with polling off, the first reading of a place is the one from the first refresh.
    @Test func getRendersAKnownStateExactly() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let result = try await almanac(["get", "weather", "--location", "Berlin", "--format",
                                        "{{place}}|{{temperature}}|{{feelsLike}}|{{condition}}|{{humidity}}|{{wind}}|{{precipitation}}|{{error|none}}"], bus: bus)
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output == "Berlin|8.6°C|8.1°C|Heavy rain|91%|6 km/h ESE|2.0 mm|none\n")
        let imperial = try await gdbusCall(on: bus, BusContract.documentPath(.weather), BusContract.documentInterface, BusContract.Document1.submit.name,
                                           ["{'units': <'imperial'>}"])
        #expect(imperial.status == 0)
        let again = try await almanac(["get", "weather", "--location", "Berlin", "--format", "{{temperature}} {{wind}} {{precipitation}}"], bus: bus)
        // The first view went, and with it the place; the store kept its reading of a moment
        // ago, which is served again without a new fetch.
        #expect(again.output == "47.5°F 4 mph ESE 0.08 in\n")
        _ = daemon.stop()
    }

    @Test func theRealProviderReadsOpenMeteoFromAConfiguredServer() async throws {
        let server = try FixtureServer.openMeteo()
        let bus = try PrivateBus()
        // Hours that all lie in the past (two days ago), for the forecast below.
        _ = try Data(contentsOf: URL(string: server.baseURL.absoluteString + "/control?hours=past")!)
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        let berlin = try await almanac(["get", "weather", "--location", "Berlin", "--format", "{{place}} {{temperature}} {{condition}}"], bus: bus)
        #expect(berlin.status == 0, "\(berlin.errorOutput)")
        #expect(berlin.output == "Berlin, Land Berlin, Germany 5.3°C Overcast\n")
        // The fixture's hours are all in the past: said, not an empty table.
        let hourly = try await almanac(["forecast", "Berlin", "--hourly"], bus: bus)
        #expect(hourly.status == 0 && hourly.output.contains("No hours ahead in this reading"), "\(hourly.output)")
        let atlantis = try await almanac(["get", "weather", "--location", "Atlantis"], bus: bus)
        #expect(atlantis.status == 65)
        #expect(atlantis.errorOutput.contains("No place called 'Atlantis' was found"))
        // Its advice said once: the provider's words suggest coordinates already.
        #expect(atlantis.errorOutput.components(separatedBy: "coordinates").count == 2, "\(atlantis.errorOutput)")
        let status = try await almanac(["status"], bus: bus)
        #expect(status.output.contains("(provider: real)"))
        _ = daemon.stop()
    }

    /// `almanac get` takes a fast path that skips ArgumentParser (OneShotGet) and, when one
    /// `GetState` answers, asks it over a BlockingConnection; it must print the same bytes and
    /// exit the same way as ArgumentParser's path, which `ALMANAC_NO_FAST_PATH` forces. A
    /// place without a reading yet (`Lisbon`) goes the async way from the fast path too.
    @Test func theOneShotFastPathPrintsWhatArgumentParserPrints() async throws {
        let bus = try PrivateBus()
        // No daemon yet: both paths say so and exit 69.
        let absent = try await almanac(["get", "weather"], bus: bus)
        let absentParsed = try await almanac(["get", "weather"], bus: bus, environment: ["ALMANAC_NO_FAST_PATH": "1"])
        #expect(absent.status == 69)
        #expect(absent.status == absentParsed.status)
        #expect(absent.errorOutput == absentParsed.errorOutput)
        let daemon = try await RunningDaemon(bus: bus)
        _ = try await almanac(["locations", "add", "Berlin", "Tokyo"], bus: bus)
        // Readings arrive a moment after the places are added; the one-shot commands wait for them.
        _ = try await almanac(["get", "weather", "--location", "Berlin"], bus: bus)
        _ = try await almanac(["get", "weather", "--location", "Tokyo"], bus: bus)
        let commandLines: [[String]] = [
            ["get", "weather"], ["get", "weather", "--json"], ["get", "weather", "--location", "Tokyo", "--units", "imperial"],
            ["get", "weather", "--location=Berlin", "--format", "{{place}}: {{temperature}}"], ["get", "podcasts"],
            ["get", "podcasts", "--json", "--feed", "nosuchpodcast"], ["get", "weather", "--location", "Atlantis"],
            ["get", "podcasts", "--location", "Berlin"], ["get", "weather", "--json", "--format", "{{place}}"],
            ["get", "weather", "--units", "kelvin"], ["get", "weather", "--format", "{{place"],
            ["get", "weather", "--location", "Lisbon", "--format", "{{place}} {{temperature}}"],
            ["get", "weather", "--format", "{{nosuch}}"], ["get", "podcasts", "--format", "{{temperature}}"],
        ]
        for (index, arguments) in commandLines.enumerated() {
            let fast = try await almanac(arguments, bus: bus)
            let parsed = try await almanac(arguments, bus: bus, environment: ["ALMANAC_NO_FAST_PATH": "1"])
            // The first five print something and succeed (equal failures would pass below).
            if index < 5 {
                #expect(fast.status == 0 && !fast.output.isEmpty, "\(arguments): \(fast.errorOutput)")
            }
            #expect(fast.status == parsed.status, "\(arguments)")
            #expect(fast.output == parsed.output, "\(arguments)")
            #expect(fast.errorOutput == parsed.errorOutput, "\(arguments)")
        }
        _ = daemon.stop()
    }

    @Test func getForAnUnknownPlaceFailsClearly() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let result = try await almanac(["get", "weather", "--location", "Atlantis"], bus: bus)
        #expect(result.status == 65)
        #expect(result.errorOutput.hasPrefix("almanac: no weather for 'Atlantis': The demo provider does not know 'Atlantis'."))
        #expect(result.errorOutput.hasSuffix(" — check the name, or give coordinates such as 52.52,13.41\n"), "\(result.errorOutput)")
        #expect(result.output.isEmpty)
        _ = daemon.stop()
    }

    @Test func shellCompletionsAreGenerated() async throws {
        let bus = try PrivateBus()
        for shell in ["bash", "zsh", "fish"] {
            let result = try await almanac(["--generate-completion-script", shell], bus: bus)
            #expect(result.status == 0)
            #expect(result.output.contains("watch"))
        }
    }

    @Test func usageErrorsSayWhatToDo() async throws {
        let bus = try PrivateBus()
        let wrongDocument = try await almanac(["get", "news"], bus: bus)
        #expect(wrongDocument.status == 64)
        #expect(wrongDocument.errorOutput.contains("weather"))
        let both = try await almanac(["get", "weather", "--json", "--format", "{{x}}"], bus: bus)
        #expect(both.status == 64)
        // With --json the error is a JSON object; without, a line in the CLI's voice.
        #expect(both.errorOutput == "{\"error\":{\"exit\":64,\"hint\":\"choose one\",\"message\":\"--json and --format were both given\"}}\n", "\(both.errorOutput)")
        let badTemplate = try await almanac(["get", "weather", "--format", "{{x"], bus: bus)
        #expect(badTemplate.status == 64)
    }

    /// Every daemon setting, named once in `Setting`, is in `settings --help` (its name and
    /// what it does), `settings list` and its `--json`, and `settings get` gives its value.
    @Test func everySettingIsInTheHelpTheListAndGet() async throws {
        let bus = try PrivateBus()
        let help = try await almanac(["settings", "--help"], bus: bus)
        let daemon = try await RunningDaemon(bus: bus, .offline)
        let list = try await almanac(["settings", "list"], bus: bus, environment: ["COLUMNS": "200"])
        let json = try await almanac(["settings", "list", "--json"], bus: bus)
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(help.status == 0 && list.status == 0 && json.status == 0, "\(help.errorOutput) \(list.errorOutput) \(json.errorOutput)")
        for setting in Setting.allCases {
            #expect(help.output.contains("\n\(setting.name) ") && help.output.contains(setting.summary), "\(setting) in:\n\(help.output)")
            #expect(list.output.contains("\(setting.name) ") && list.output.contains(setting.summary), "\(setting) in:\n\(list.output)")
            #expect(object?[setting.name] != nil, "\(setting) in \(json.output)")
            let get = try await almanac(["settings", "get", setting.name], bus: bus)
            #expect(get.status == 0 && !get.output.isEmpty, "\(setting): \(get.errorOutput)")
        }
        _ = daemon.stop()
    }

    /// The watch shows a settings change it hears only as a decoded `units` change, applied
    /// to its state with the document's reducer.
    @Test func aWatchShowsAUnitsChangeAsItHappens() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .offline)
        let watcher = try Tool.Background(Binaries.almanac, ["watch", "weather", "--location", "Tokyo", "--json"], environment: bus.environment)
        defer { watcher.stop() }
        #expect(await watcher.waitFor("\"units\":\"metric\""), "\(watcher.output)")
        #expect(try await almanac(["settings", "set", "units", "imperial"], bus: bus).status == 0)
        #expect(await watcher.waitFor("\"units\":\"imperial\""), "\(watcher.output)")
        let last = try #require(watcher.output.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let now = try #require((object["weather"] as? [[String: Any]])?.first)
        #expect(now["place"] as? String == "Tokyo" && (now["temperatureText"] as? String)?.hasSuffix("°F") == true, "\(now)")
        _ = daemon.stop()
    }

    @Test func watchPrintsJSONPerUpdateAndSurvivesADaemonRestart() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .offline.with("--weather-interval", "0.2"))
        let watcher = try Tool.Background(Binaries.almanac, ["watch", "weather", "--location", "Tokyo", "--json"], environment: bus.environment)
        #expect(await watcher.waitFor("\"place\":\"Tokyo\""))
        try await daemon.restart()
        let before = watcher.output.components(separatedBy: "\n").count
        // After the restart the watcher registers again and keeps printing.
        let resumed = await eventually(every: .milliseconds(50)) { watcher.output.components(separatedBy: "\n").count > before + 1 }
        #expect(resumed, "watch printed nothing after the daemon restarted:\n\(watcher.output)")
        var lastRevision = -1
        var restarts = 0
        for line in watcher.output.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["document"] as? String == "weather", "not JSON: \(line)")
            let revision = object?["revision"] as? Int ?? -1
            // Revisions only grow (each printed once), except across the restart, which starts anew.
            if revision <= lastRevision { restarts += 1 }
            lastRevision = revision
        }
        #expect(restarts <= 1, "revisions went backwards or repeated:\n\(watcher.output)")
        watcher.stop()
        _ = daemon.stop()
    }

    @Test func twoWatchersBothSeeASubmittedChange() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let watchers = try (0..<2).map { _ in
            try Tool.Background(Binaries.almanac, ["watch", "weather", "--location", "Paris", "--format", "{{place}} {{temperature}}"], environment: bus.environment)
        }
        for watcher in watchers { #expect(await watcher.waitFor("Paris ")) }
        // Each watcher's view object answers introspection and names its owner.
        let owners = try await busctlGetProperty(on: bus, BusContract.viewPath(.weather, 1), BusContract.View1.owner)
        #expect(owners.output.hasPrefix("s \":1."))
        let introspection = try await gdbusIntrospect(on: bus, BusContract.viewPath(.weather, 2))
        #expect(introspection.output.contains("Updated(t revision,"))
        let submit = try await busctlCall(on: bus, BusContract.documentPath(.weather), BusContract.documentInterface, BusContract.Document1.submit.name,
                                          ["a{sv}", "1", "units", "s", "imperial"])
        #expect(submit.status == 0, "\(submit.errorOutput)")
        for watcher in watchers {
            #expect(await watcher.waitFor("°F"), "no Fahrenheit in:\n\(watcher.output)")
            watcher.stop()
        }
        _ = daemon.stop()
    }

    @Test func watchIgnoresUpdatesFromImpostorsAndCtrlCExits0() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let watch = try ChildProcess(URL(fileURLWithPath: Binaries.almanac), ["watch", "weather", "--location", "Oslo", "--json"], environment: bus.environment)
        let impostor = try await AlmanacClient.connect(address: bus.address)
        let registered = try await eventually { try await impostor.property(BusContract.Document1.viewCount, of: .weather) == 1 }
        #expect(registered)
        try impostor.connection.emit(BusContract.View1.updated, path: BusContract.viewPath(.weather, 1),
                                     (UInt64(999_999), ["kind": Value.string("units"), "units": .string("imperial")]))
        _ = try await impostor.submit(.weather, ["units": .string("imperial")])
        try await Task.sleep(for: .milliseconds(300))
        watch.send(SIGINT)
        #expect(watch.wait() == 0)
        let output = String(decoding: watch.output.readDataToEndOfFile(), as: UTF8.self)
        #expect(!output.contains("999999"), "an impostor's update was printed:\n\(output)")
        await impostor.connection.close()
        _ = daemon.stop()
    }

    @Test func dbusActivationStartsTheDaemonOnTheFirstCall() async throws {
        let services = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-services-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: services) }
        let activationFile = "\(BusContract.serviceName).service"
        let shipped = try String(contentsOfFile: SourceTree.path("systemd/" + activationFile), encoding: .utf8)
        #expect(shipped.contains("SystemdService=almanacd.service"))
        try shipped.replacingOccurrences(of: "@bindir@", with: Binaries.folder.path)
            .write(to: services.appendingPathComponent(activationFile), atomically: true, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = services.path
        let bus = try PrivateBus(serviceDirectory: services, environment: environment)
        let result = try await almanac(["status"], bus: bus)
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output.hasPrefix("almanacd 0.1.0 is running"))
        bus.stop()
    }

    @Test func watchInATerminalShowsTheWeatherAndCtrlCRemovesItsView() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let session = "almanac-\(UUID().uuidString.prefix(8))"
        let command = "env DBUS_SESSION_BUS_ADDRESS='\(bus.address)' \(Binaries.almanac) watch weather --location Reykjavik"
        let started = try await Tool.runDetached("tmux", ["-L", session, "new-session", "-d", "-s", session, "-x", "160", "-y", "20", command])
        #expect(started.status == 0, "\(started.errorOutput)")
        defer { _ = try? Tool.run("tmux", ["-L", session, "kill-server"]) }
        var screen = ""
        try await eventually(every: .milliseconds(50)) {
            screen = try await Tool.runDetached("tmux", ["-L", session, "capture-pane", "-p", "-t", session]).output
            return screen.contains("Reykjavik  ")
        }
        #expect(screen.contains("Reykjavik  "), "screen:\n\(screen)")
        #expect(screen.contains("°C (feels"))
        let observer = try await AlmanacClient.connect(address: bus.address)
        func viewCount() async throws -> UInt32 { try await observer.property(BusContract.Document1.viewCount, of: .weather) }
        #expect(try await viewCount() == 1)
        _ = try await Tool.runDetached("tmux", ["-L", session, "send-keys", "-t", session, "C-c"])
        #expect(try await eventually { try await viewCount() == 0 })
        await observer.connection.close()
        _ = daemon.stop()
    }
}
