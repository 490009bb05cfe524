import Foundation
import TestHarness
import Testing

/// What `make install` and `make deb` generate from the built binaries
/// (`scripts/generated-files.sh`): a man page per command and the shells' completions.
@Suite(.onTestThreads, .timeLimit(.hang)) struct GeneratedFilesTests {
    /// The command tree as `--experimental-dump-help` gives it, as much as the pages need.
    private struct Command: Decodable {
        var commandName: String
        var shouldDisplay: Bool?
        var subcommands: [Command]?

        /// The page names of this command and every visible subcommand under it.
        func pageNames(prefix: String = "") -> [String] {
            let name = prefix.isEmpty ? commandName : "\(prefix)-\(commandName)"
            let visible = (subcommands ?? []).filter { $0.shouldDisplay != false && $0.commandName != "help" }
            return [name] + visible.flatMap { $0.pageNames(prefix: name) }
        }
    }

    private struct ToolInfo: Decodable {
        var command: Command
    }

    /// Runs the script into a new folder and hands it to `body`.
    private static func withGeneratedFiles(_ body: (URL) async throws -> Void) async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-generated-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try await Tool.runDetached(SourceTree.path("scripts/generated-files.sh"), [Binaries.folder.path, out.path], timeout: 480)
        #expect(result.status == 0, "\(result.errorOutput)")
        try await body(out)
    }

    @Test func everyCommandAndSubcommandHasAManPageThatManRendersWithoutWarnings() async throws {
        let dump = try await Tool.runDetached(Binaries.almanac, ["--experimental-dump-help"])
        let tree = try JSONDecoder().decode(ToolInfo.self, from: Data(dump.output.utf8))
        let expected = Set(tree.command.pageNames() + ["almanacd"])
        #expect(expected.contains("almanac-podcasts-subscribe"))
        try await Self.withGeneratedFiles { out in
            let pages = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("man1").path)
            #expect(Set(pages) == Set(expected.map { $0 + ".1" }))
            for page in ["almanac", "almanac-podcasts", "almanac-podcasts-subscribe", "almanacd"] {
                let path = out.appendingPathComponent("man1/\(page).1").path
                var environment = ProcessInfo.processInfo.environment
                environment["MANWIDTH"] = "80"
                let rendered = try await Tool.runDetached("man", ["--warnings", "-l", "-P", "cat", path], environment: environment)
                #expect(rendered.status == 0, "\(page): \(rendered.errorOutput)")
                #expect(rendered.errorOutput.isEmpty, "man warns about \(page).1:\n\(rendered.errorOutput)")
                #expect(rendered.output.contains("NAME"))
                #expect(rendered.output.contains("SYNOPSIS"))
            }
            let daemonPage = try String(contentsOfFile: out.appendingPathComponent("man1/almanacd.1").path, encoding: .utf8)
            #expect(daemonPage.contains("\\-\\-provider"))
            #expect(daemonPage.contains(".SH FILES"))
        }
    }

    @Test func bashCompletesTheSubcommandsOfAlmanacAndOfItsSubcommands() async throws {
        try await Self.withGeneratedFiles { out in
            let completion = out.appendingPathComponent("almanac.bash").path
            let script = """
                source '\(completion)'
                COMP_WORDS=(almanac podcasts ""); COMP_CWORD=2; COMP_LINE="almanac podcasts "; COMP_POINT=${#COMP_LINE}
                _almanac almanac "" podcasts
                printf '%s\\n' "${COMPREPLY[@]}"
                COMP_WORDS=(almanac ""); COMP_CWORD=1; COMP_LINE="almanac "; COMP_POINT=${#COMP_LINE}
                _almanac almanac "" almanac
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try await Tool.runDetached("bash", ["-c", script])
            #expect(result.status == 0, "\(result.errorOutput)")
            let words = Set(result.output.split(separator: "\n").map(String.init))
            #expect(words.isSuperset(of: ["status", "weather", "podcasts", "episodes", "subscribe", "unsubscribe", "import"]), "\(words.sorted())")
            let firstLine = try String(contentsOfFile: completion, encoding: .utf8).prefix(while: { $0 != "\n" })
            #expect(!firstLine.hasPrefix("#!"), "a completion is sourced, not run: no #! line")
            for file in ["_almanac", "almanac.fish"] {
                let text = try String(contentsOfFile: out.appendingPathComponent(file).path, encoding: .utf8)
                #expect(text.contains("podcasts"), "\(file) does not complete podcasts")
            }
        }
    }
}
