import AlmanacWire
import Foundation
import TestHarness
import Testing

/// The CLI's one voice, through the real binaries: every error on standard error as
/// `almanac: what went wrong — what to do` (or one JSON object with `--json`), the exit
/// statuses of docs/cli.md, "did you mean", templates that say what is wrong, and the small
/// things a person meets (page hints, empty lists).
@Suite(.onTestThreads, .timeLimit(.hang)) struct VoiceTests {
    /// The JSON error object on standard error: `{"error": {...}}`.
    func jsonError(_ result: Tool.Result) throws -> [String: Any] {
        let lines = result.errorOutput.split(separator: "\n")
        try #require(lines.count == 1, "one JSON object on standard error: \(result.errorOutput)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any], "\(result.errorOutput)")
        return try #require(object["error"] as? [String: Any], "\(object)")
    }

    @Test func everyCommandWithoutADaemonExits69WithAdvice() async throws {
        let bus = try PrivateBus()
        let opml = bus.directory.appendingPathComponent("feeds.opml").path
        try "<opml version=\"2.0\"><body><outline xmlUrl=\"https://example.com/feed.xml\"/></body></opml>".write(toFile: opml, atomically: true, encoding: .utf8)
        let commandLines: [[String]] = [
            ["status"], ["episodes"], ["episodes", "--downloaded", "--page", "2"], ["weather", "Berlin"], ["weather"], ["forecast", "Berlin"],
            ["locations"], ["locations", "add", "Berlin"], ["podcasts", "list"], ["podcasts", "refresh"], ["podcasts", "import", opml],
            ["podcasts", "export"], ["downloads"], ["downloads", "cancel", "1"], ["settings"], ["settings", "set", "notify", "on"],
            ["episode", "played", "x"], ["episode", "download", "x"], ["get", "weather"], ["get", "podcasts"],
        ]
        for arguments in commandLines {
            let result = try await almanac(arguments, bus: bus)
            #expect(result.status == 69, "\(arguments): \(result.status) \(result.errorOutput)")
            #expect(result.output.isEmpty, "\(arguments): \(result.output)")
            #expect(result.errorOutput.hasPrefix("almanac: almanacd is not running ("), "\(arguments): \(result.errorOutput)")
            #expect(result.errorOutput.hasSuffix(" — start it with `systemctl --user start almanacd` or `almanacd &`\n"), "\(arguments): \(result.errorOutput)")
        }
        let json = try await almanac(["episodes", "--json"], bus: bus)
        #expect(json.status == 69 && json.output.isEmpty)
        let error = try jsonError(json)
        #expect(error["exit"] as? Int == 69)
        #expect(error["name"] as? String == "org.freedesktop.DBus.Error.ServiceUnknown")
        #expect((error["message"] as? String)?.hasPrefix("almanacd is not running") == true)
        #expect((error["hint"] as? String)?.contains("systemctl --user start almanacd") == true)
    }

    @Test func usageErrorsSpeakInTheSameVoiceAndSuggestWhatWasMeant() async throws {
        let bus = try PrivateBus()
        let subcommand = try await almanac(["wether"], bus: bus)
        #expect(subcommand.status == 64)
        #expect(subcommand.errorOutput.hasPrefix("almanac: 'wether' is not a command — did you mean 'weather'?\nUsage: almanac "), "\(subcommand.errorOutput)")
        let nested = try await almanac(["podcasts", "lsit"], bus: bus)
        #expect(nested.status == 64 && nested.errorOutput.hasPrefix("almanac: 'lsit' is not a command — did you mean 'list'?"), "\(nested.errorOutput)")
        let option = try await almanac(["get", "weather", "--jsn"], bus: bus)
        #expect(option.status == 64)
        #expect(option.errorOutput.hasPrefix("almanac: unknown option '--jsn' — did you mean '--json'?\nUsage: almanac get "), "\(option.errorOutput)")
        // An unknown command followed by an option is named, not the option.
        let unknownThenOption = try await almanac(["umbrella", "X", "--json"], bus: bus)
        #expect(unknownThenOption.status == 64)
        // With --json on the line, the error is JSON.
        #expect(unknownThenOption.errorOutput.contains(#""hint":"see `almanac --help`","message":"'umbrella' is not a command""#), "\(unknownThenOption.errorOutput)")
        let slipThenOption = try await almanac(["wether", "Berlin", "--units", "metric"], bus: bus)
        #expect(slipThenOption.errorOutput.hasPrefix("almanac: 'wether' is not a command — did you mean 'weather'?"), "\(slipThenOption.errorOutput)")
        let nothingClose = try await almanac(["zzzzzz"], bus: bus)
        #expect(nothingClose.status == 64 && nothingClose.errorOutput.hasPrefix("almanac: unexpected argument 'zzzzzz' — see `almanac --help`"), "\(nothingClose.errorOutput)")
        let validation = try await almanac(["forecast", "Berlin", "--days", "40"], bus: bus)
        #expect(validation.status == 64)
        #expect(validation.errorOutput.hasPrefix("almanac: --days goes from 1 to 16, not 40 — see `almanac forecast --help`\n"), "\(validation.errorOutput)")
        // No other voice is left.
        for result in [subcommand, nested, option, nothingClose, validation] { #expect(!result.errorOutput.contains("Error:")) }
        // With --json, a usage error is a JSON object too.
        let json = try await almanac(["get", "weather", "--json", "--bogus"], bus: bus)
        #expect(json.status == 64 && json.output.isEmpty)
        let error = try jsonError(json)
        #expect(error["exit"] as? Int == 64 && error["message"] as? String == "unknown option '--bogus'", "\(error)")
        // Help and the version still go to standard output, exit 0.
        let help = try await almanac(["weather", "--help"], bus: bus)
        #expect(help.status == 0 && help.output.contains("USAGE: almanac weather") && help.errorOutput.isEmpty)
        #expect(try await almanac(["--version"], bus: bus).output == "0.1.0\n")
    }

    @Test func weatherForAPlaceTheProviderRefusesSaysWhyOnStandardError() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let human = try await almanac(["weather", "Atlantis"], bus: bus)
        #expect(human.status == 65 && human.output.isEmpty, "\(human.output)")
        #expect(human.errorOutput == "almanac: no weather for 'Atlantis': The demo provider does not know 'Atlantis'. It knows: Berlin, Paris, London, New York, Tokyo, Sydney, Reykjavik, Cape Town, Mumbai, São Paulo — check the name, or give coordinates such as 52.52,13.41\n")
        let json = try await almanac(["weather", "Atlantis", "--json"], bus: bus)
        #expect(json.status == 65 && json.output.isEmpty, "\(json.output)")
        let error = try jsonError(json)
        #expect((error["message"] as? String)?.contains("does not know 'Atlantis'") == true)
        #expect(error["exit"] as? Int == 65 && error["hint"] as? String == "check the name, or give coordinates such as 52.52,13.41")
        // A refusal by the daemon names its D-Bus error.
        let refused = try await almanac(["episode", "played", "nope-1", "--json"], bus: bus)
        #expect(refused.status == 65)
        #expect(try jsonError(refused)["name"] as? String == "org.freedesktop.DBus.Error.InvalidArgs")
        _ = daemon.stop()
    }

    @Test func episodePagesAreCountedAndAPagePastTheEndIsAUsageError() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        // The demo provider starts with nine episodes; a table's header line is not one.
        func rows(_ output: String) -> Int { output.split(separator: "\n").filter { !$0.hasPrefix("ID ") }.count }
        let first = try await almanac(["episodes", "--limit", "4"], bus: bus)
        #expect(first.status == 0 && rows(first.output) == 4, "\(first.output)")
        #expect(first.errorOutput == "page 1 of 3 — `--page 2` for more, `--all` for every page\n")
        let last = try await almanac(["episodes", "--limit", "4", "--page", "3"], bus: bus)
        #expect(last.status == 0 && rows(last.output) == 1 && last.errorOutput.isEmpty, "\(last.output)\(last.errorOutput)")
        let all = try await almanac(["episodes", "--limit", "4", "--all"], bus: bus)
        #expect(rows(all.output) == 9 && all.errorOutput.isEmpty, "\(all.output)")
        let past = try await almanac(["episodes", "--limit", "4", "--page", "9"], bus: bus)
        #expect(past.status == 64 && past.output.isEmpty)
        #expect(past.errorOutput == "almanac: there is no page 9: 9 episodes make 3 pages of 4 — ask for --page 1 to 3, or --all\n")
        let json = try await almanac(["episodes", "--page", "2", "--json"], bus: bus)
        let error = try jsonError(json)
        #expect(json.status == 64 && json.output.isEmpty && error["exit"] as? Int == 64)

        // Empty lists say what is empty, and how to fill it.
        let downloaded = try await almanac(["episodes", "--downloaded"], bus: bus)
        #expect(downloaded.status == 0 && downloaded.output == "No downloaded episodes.\n")
        let locations = try await almanac(["locations"], bus: bus)
        #expect(locations.status == 0 && locations.output == "No saved places. Add one with `almanac locations add Berlin`.\n")
        #expect(try await almanac(["locations", "--json"], bus: bus).output == "{\"locations\":[]}\n")
        _ = daemon.stop()
    }

    @Test func templatesNameOnlyFieldsThatExistAndGiveValues() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let unknown = try await almanac(["status", "--format", "{{nosuch}} {{provider}}"], bus: bus)
        #expect(unknown.status == 64 && unknown.output.isEmpty)
        #expect(unknown.errorOutput.hasPrefix("almanac: --format names a field that almanac status does not have: 'nosuch' — use version, owner, provider, views, loading, error, network\n"), "\(unknown.errorOutput)")
        // status honours --format now.
        #expect(try await almanac(["status", "--format", "{{provider}} {{views}}"], bus: bus).output == "demo 0\n")
        // The fields depend on what is printed: days or hours.
        let hours = try await almanac(["forecast", "Berlin", "--hourly", "--format", "{{high}}"], bus: bus)
        #expect(hours.status == 64 && hours.errorOutput.contains("'high' — use time, symbol, condition, temperature, precipitationChance"), "\(hours.errorOutput)")
        let podcasts = try await almanac(["get", "podcasts", "--format", "{{temperature}}"], bus: bus)
        #expect(podcasts.status == 64 && podcasts.errorOutput.contains("— use id, title, podcast"), "\(podcasts.errorOutput)")
        // Commands that print nothing to template do not take --format.
        let add = try await almanac(["locations", "add", "Berlin", "--format", "{{location}}"], bus: bus)
        #expect(add.status == 64 && add.errorOutput.hasPrefix("almanac: unknown option '--format'"), "\(add.errorOutput)")
        #expect(try await almanac(["locations", "--format", "<{{location}}>"], bus: bus).output == "")
        // --help lists each command's fields.
        let help = try await almanac(["weather", "--help"], bus: bus)
        #expect(help.output.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ").contains("Fields: location, place, temperature"), "\(help.output)")
        let downloadsHelp = try await almanac(["downloads", "list", "--help"], bus: bus)
        #expect(downloadsHelp.output.contains("eta"), "\(downloadsHelp.output)")
        // Values are values: "just now", not "updated just now"; a fallback still applies.
        let updated = try await almanac(["get", "weather", "--location", "Berlin", "--format", "{{updated}}|{{error|none}}"], bus: bus)
        #expect(updated.status == 0 && updated.output.hasSuffix(" ago|none\n") || updated.output == "just now|none\n", "\(updated.output)\(updated.errorOutput)")
        _ = daemon.stop()
    }

    @Test func almanacdRunByHandWritesPlainLinesAndTheJournalGetsPriorities() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        // The line is written just after the name is taken, which is what the start waited for.
        #expect(await eventually { !daemon.logLines("almanacd owns its name on the bus", with: ["version": "0.1.0", "subsystem": "almanacd"]).isEmpty },
                "\(daemon.log)")
        #expect(!daemon.log.contains("<6>"))
        // A second daemon refuses to start: by hand, a plain error line.
        let byHand = try await RunningDaemon.run(on: bus, .offline, folder: "second")
        #expect(byHand.status == 1)
        #expect(byHand.errorOutput.split(separator: "\n").contains { $0.hasPrefix("error: Another almanacd already owns") }, "\(byHand.errorOutput)")
        // With standard error the stream JOURNAL_STREAM names (as systemd sets it), journal priorities.
        let log = bus.directory.appendingPathComponent("journal.log").path
        let state = bus.directory.appendingPathComponent("third").path
        let script = "exec 2>\"$1\"; JOURNAL_STREAM=$(stat -c %d:%i \"$1\") exec \"$2\" --address \"$3\" --state-dir \"$4/state\" --data-dir \"$4/data\" --provider demo"
        let underJournal = try await Tool.runDetached("sh", ["-c", script, "sh", log, Binaries.almanacd, bus.address, state])
        #expect(underJournal.status == 1)
        let written = try String(contentsOfFile: log, encoding: .utf8)
        #expect(written.split(separator: "\n").contains { $0.hasPrefix("<3>Another almanacd already owns") }, "\(written)")
        #expect(written.split(separator: "\n").allSatisfy { $0.hasPrefix("<") }, "every line has its priority:\n\(written)")
        _ = daemon.stop()
    }
}
