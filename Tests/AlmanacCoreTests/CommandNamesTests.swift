import Foundation
import TestHarness
import Testing

/// Every command of the CLI names itself (`commandName:`). Without one ArgumentParser makes
/// the name from `String(describing: Self.self)`, a reflection whose first conformance
/// lookups scan every conformance record of the program: some 750 K instructions per
/// command, paid on every run by each unnamed command the parser passes while finding the
/// one asked for (a quarter of an `almanac podcasts`; docs/performance.md).
@Suite(.onTestThreads, .timeLimit(.hang)) struct CommandNamesTests {
    @Test func everyCommandConfigurationNamesItsCommand() throws {
        let folder = SourceTree.path("Sources/almanac")
        let files = try #require(FileManager.default.enumerator(atPath: folder)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
        var unnamed: [String] = []
        var configurations = 0
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            configurations += Self.configurations(in: text).count
            unnamed += Self.unnamed(in: text).map { "\(file):\($0)" }
        }
        #expect(configurations > 40, "the commands were found: \(configurations)")
        #expect(unnamed.isEmpty, "give each command its `commandName:`:\n\(unnamed.joined(separator: "\n"))")
    }

    /// The check finds a configuration without a name, on one line or several, and leaves a
    /// named one alone (a check that cannot fail proves nothing).
    @Test func theCheckFindsAConfigurationWithoutAName() {
        #expect(Self.unnamed(in: #"static let configuration = CommandConfiguration(abstract: "Prints.")"#) == [1])
        #expect(Self.unnamed(in: "x\n    static let configuration = CommandConfiguration(\n        abstract: \"a (b)\",\n        subcommands: [A.self]\n    )") == [2])
        #expect(Self.unnamed(in: #"static let configuration = CommandConfiguration(commandName: "get", abstract: "Prints.")"#).isEmpty)
        #expect(Self.unnamed(in: "static let configuration = CommandConfiguration(\n    commandName: \"queue\",\n    abstract: \"x\")").isEmpty)
    }

    /// The argument lists of each `CommandConfiguration(…)` in `text` (to its closing
    /// parenthesis, string literals' parentheses included: a rough count that only has to
    /// reach `commandName:`, the first argument), with the line each starts on.
    static func configurations(in text: String) -> [(line: Int, arguments: Substring)] {
        var found: [(Int, Substring)] = []
        var rest = text[...]
        while let start = rest.range(of: "CommandConfiguration(") {
            let line = text[..<start.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
            var depth = 1
            var end = start.upperBound
            while end < rest.endIndex, depth > 0 {
                if rest[end] == "(" { depth += 1 } else if rest[end] == ")" { depth -= 1 }
                end = rest.index(after: end)
            }
            found.append((line, rest[start.upperBound..<end]))
            rest = rest[end...]
        }
        return found
    }

    /// The lines of the configurations in `text` that name no command.
    static func unnamed(in text: String) -> [Int] {
        configurations(in: text).filter { !$0.arguments.contains("commandName:") }.map(\.line)
    }
}
