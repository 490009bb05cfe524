import Foundation
import TestHarness
import Testing

/// The project's size limits on everything under Sources (CONVENTIONS, issue 40): no function
/// longer than 80 lines, no file longer than 500. A function is a line that starts a `func`,
/// `init`, `deinit` or `subscript`, measured to its matching closing brace (string literals
/// and `//` comments ignored when counting braces).
@Suite(.onTestThreads, .timeLimit(.hang)) struct SourceSizeTests {
    static let maximumFunctionLines = 80
    static let maximumFileLines = 500

    /// Every `.swift` file under Sources, as paths relative to the repository's top folder.
    static func sourceFiles() throws -> [String] {
        let sources = SourceTree.path("Sources")
        let all = try FileManager.default.subpathsOfDirectory(atPath: sources)
        return all.filter { $0.hasSuffix(".swift") }.sorted().map { "Sources/" + $0 }
    }

    static func lines(of file: String) throws -> [String] {
        let text = try String(contentsOfFile: SourceTree.path(file), encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// A line that begins a function, an initialiser, a deinitialiser or a subscript.
    static var declaration: Regex<Substring> {
        #/^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|internal|fileprivate|package|static|override|final|nonisolated|mutating|consuming|borrowing|convenience|required|@discardableResult|@inlinable)\s+)*(?:func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\b|subscript)/#
    }

    /// The brace count of `line` with string literals and `//` comments left out.
    static func braces(in line: String) -> (opened: Int, closed: Int) {
        let strings = #/"(?:[^"\\]|\\.)*"/#
        let code = line.replacing(strings, with: "\"\"").components(separatedBy: "//")[0]
        return (code.filter { $0 == "{" }.count, code.filter { $0 == "}" }.count)
    }

    /// The length in lines of each function declared in `lines`, with the line it starts on.
    static func functionLengths(_ lines: [String]) -> [(line: Int, length: Int, header: String)] {
        var found: [(Int, Int, String)] = []
        for (start, line) in lines.enumerated() {
            // The cheap test first: the pattern is slow over some 100,000 lines.
            guard ["func ", "init", "deinit", "subscript"].contains(where: line.contains),
                line.firstMatch(of: declaration) != nil,
                lines[start..<min(start + 15, lines.count)].joined().contains("{")
            else { continue }
            var depth = 0
            var started = false
            var end = start
            while end < lines.count {
                let (opened, closed) = braces(in: lines[end])
                depth += opened - closed
                if opened > 0 { started = true }
                if started && depth <= 0 { break }
                end += 1
            }
            found.append((start + 1, end - start + 1, line.trimmingCharacters(in: .whitespaces)))
        }
        return found
    }

    @Test func noFunctionInSourcesIsLongerThanEightyLines() throws {
        var long: [String] = []
        for file in try Self.sourceFiles() {
            for function in Self.functionLengths(try Self.lines(of: file))
            where function.length > Self.maximumFunctionLines {
                long.append("\(file):\(function.line) \(function.length) lines: \(function.header)")
            }
        }
        #expect(long.isEmpty, "split these into named helpers:\n\(long.joined(separator: "\n"))")
    }

    @Test func noFileInSourcesIsLongerThanFiveHundredLines() throws {
        var big: [String] = []
        for file in try Self.sourceFiles() {
            let count = try Self.lines(of: file).count
            if count > Self.maximumFileLines { big.append("\(file) \(count) lines") }
        }
        #expect(big.isEmpty, "move whole extensions into Type+Concern.swift files:\n\(big.joined(separator: "\n"))")
    }

    /// The scan itself: a function one line over the limit is found, one at the limit is not,
    /// and braces inside strings and comments do not end a function early.
    @Test func theScanMeasuresFunctionsToTheirClosingBrace() {
        let body = { (n: Int) in (0..<n).map { _ in "    let s = \"}\" // }" } }
        let over = ["    func long() {"] + body(Self.maximumFunctionLines - 1) + ["    }"]
        let at = ["    private static func short(_ a: Int) -> Int {"] + body(Self.maximumFunctionLines - 2) + ["    }"]
        #expect(Self.functionLengths(over).map(\.length) == [Self.maximumFunctionLines + 1])
        #expect(Self.functionLengths(at).map(\.length) == [Self.maximumFunctionLines])
    }
}
