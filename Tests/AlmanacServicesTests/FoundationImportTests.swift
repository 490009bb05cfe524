import Foundation
import TestHarness
import Testing

/// The shipped programs import FoundationEssentials, never `Foundation`: any one import of
/// `Foundation` links ICU's 37.7 MB into the binary (docs/performance.md, "Where the size
/// comes from").
@Suite(.onTestThreads, .timeLimit(.hang)) struct FoundationImportTests {

    @Test func noSourceOfTheProgramsImportsFoundation() throws {
        let sources = SourceTree.path("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("TestHarness/") }
        #expect(files.count > 100, "the sources were found: \(files.count)")
        var importing: [String] = []
        for file in files {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").filter { !["public", "internal", "package", "@_exported"].contains($0) }
                if words.count == 2, words[0] == "import", ["Foundation", "FoundationNetworking", "FoundationInternationalization"].contains(words[1]) {
                    importing.append("\(file): \(line)")
                }
            }
        }
        #expect(importing.isEmpty, "import FoundationEssentials instead:\n\(importing.joined(separator: "\n"))")
    }
}
