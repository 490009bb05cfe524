import Foundation
import TestHarness
import Testing

/// Loggers are passed in and values go in metadata (issue 40; swift-log's "never construct
/// your own" and structured logging): no part of Almanac makes a `Logger(label:)` but
/// almanacd's root (`Logger+Subsystem.swift`) and the test harness, and no log call builds
/// its message from values — the message stays constant and greppable, the values are
/// metadata the journal shows as `key=value`.
@Suite(.onTestThreads, .timeLimit(.hang)) struct LoggersPassedInTests {
    /// Where a logger may be made: the daemon's one root, and the harness's for tests.
    static let makers = ["almanacd/Logger+Subsystem.swift", "TestHarness/"]
    /// A logger made from a label (simple word boundaries: Unicode's run through the dots of
    /// `Logging.Logger`).
    static var made: Regex<Substring> { /\bLogger\s*(?:\.init)?\s*\(\s*label\s*:/.wordBoundaryKind(.simple) }
    /// A log call whose message literal interpolates (`logger.info("read \(url)")`), on one
    /// line or with the message on the next.
    static var interpolating: Regex<Substring> {
        /\.(?:trace|debug|info|notice|warning|error|critical)\(\s*"(?:[^"\\\n]|\\[^(])*\\\(/
    }

    @Test func onlyTheDaemonsRootAndTheHarnessMakeALogger() throws {
        var found: [String] = []
        for (file, lines) in try Self.sources() where !Self.makers.contains(where: { file.hasPrefix($0) }) {
            for (number, line) in lines.enumerated() where line.contains(Self.made) {
                found.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "take a `logger: Logger` and let almanacd pass it (Logger+Subsystem.swift):\n\(found.joined(separator: "\n"))")
    }

    @Test func noLogCallInterpolatesItsMessage() throws {
        var found: [String] = []
        for (file, lines) in try Self.sources() {
            found += Self.interpolations(in: lines).map { "\(file):\($0.line): \($0.text)" }
        }
        #expect(found.isEmpty, "say a constant message and put the values in metadata (`metadata: [\"feed\": \"\\(url)\"]`):\n\(found.joined(separator: "\n"))")
    }

    /// The checks find what they look for (a check that cannot fail proves nothing), and
    /// leave alone what is allowed.
    @Test func theChecksFindEachLoggerMadeAndEachInterpolatedMessage() {
        for line in [#"private let logger = Logger(label: "almanac.weather")"#, #"logger: Logger = Logger(label: "almanac.bus")) {"#,
                     #"let logger = Logging.Logger.init( label: "x")"#] {
            #expect(line.contains(Self.made), "\(line)")
        }
        #expect(!"logger: Logger, clock: any WallClock".contains(Self.made))
        let interpolated = [
            #"logger.info("deleted \(file): \(reason)")"#,
            #"logger.notice("\(reason)")"#,
            #"logger.subsystem(.downloads).notice("removed \(file)")"#,
            #"logger.error("a \"quoted\" word and \(value)", metadata: [:])"#,
        ]
        for line in interpolated {
            #expect(Self.interpolations(in: [Substring(line)]).count == 1, "\(line)")
        }
        // The message on the line after the call.
        #expect(Self.interpolations(in: ["    logger.warning(", #"        "could not read \(url)", metadata: [:])"#]).map(\.line) == [1])
        let constant = [
            #"logger.info("deleted a download", metadata: ["file": "\(file)", "reason": "\(reason)"])"#,
            #"logger.error(what, metadata: ["error": "\(error)"])"#,
            #"logger.warning("a \"quoted\" word", metadata: ["value": "\(value)"])"#,
            #"Terminal.error("cannot read it")"#,
            // The CLI's words to a person at a terminal are no log line.
            #"Terminal.error("not subscribed: \(url): \(reason)", hint: Self.hint(url))"#,
            #"case .failed: Terminal().notice("kept in \(path)")"#,
        ]
        for line in constant {
            #expect(Self.interpolations(in: [Substring(line)]).isEmpty, "\(line)")
        }
        // Comments are not code.
        #expect(Self.interpolations(in: [#"    /// e.g. logger.info("read \(url)")"#]).isEmpty)
    }

    /// The subsystems a journal line can carry (`subsystem=`, almanacd's `Subsystem`) are the
    /// ones docs/architecture.md lists for users to filter by, no more and no fewer.
    @Test func theSubsystemsAreTheDocumentedOnes() throws {
        let code = try String(contentsOfFile: SourceTree.path("Sources/almanacd/Subsystem.swift"), encoding: .utf8)
        let named = Set(code.matches(of: /case \w+ = "([a-z.]+)"/).map { String($0.output.1) })
        let docs = try String(contentsOfFile: SourceTree.path("docs/architecture.md"), encoding: .utf8)
        let section = try #require(docs.split(separator: "\n## ").first { $0.hasPrefix("Logging") })
        let listed = Set(section.matches(of: /`(almanacd|almanac\.[a-z]+)`/).map { String($0.output.1) })
        #expect(named.count >= 12 && named == listed, "in the code, not the docs: \(named.subtracting(listed)); in the docs, not the code: \(listed.subtracting(named))")
    }

    /// The log calls in `lines` whose message interpolates: their first line's number (from 1)
    /// and text. The CLI's `Terminal` calls are not log calls: what they say is read by the
    /// person who typed the command, values and all.
    static func interpolations(in lines: [Substring]) -> [(line: Int, text: String)] {
        // Comment lines are blanked, so that line numbers still count from the file's start.
        let code = lines.map { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : String($0) }.joined(separator: "\n")
        return code.matches(of: interpolating).compactMap { match in
            let line = code[..<match.range.lowerBound].count { $0 == "\n" }
            let receiver = code[..<match.range.lowerBound].split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
            guard !receiver.contains(/[Tt]erminal(\(\))?$/) else { return nil }
            return (line + 1, lines[line].trimmingCharacters(in: .whitespaces))
        }
    }

    /// Every Swift file under Sources, by its path there, as lines.
    static func sources() throws -> [(file: String, lines: [Substring])] {
        let sources = SourceTree.path("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 300, "the sources were found: \(files.count)")
        return try files.map { file in
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            return (file, text.split(separator: "\n", omittingEmptySubsequences: false))
        }
    }
}
