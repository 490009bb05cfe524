import Foundation
import TestHarness
import Testing

/// A member name of our interfaces is written once in Sources, in `BusContract+Names.swift`;
/// interface names once, in `BusContract.swift` (issue 31); error names once, in
/// `ClientErrorName.swift`, where the errors that name themselves find them (issue 40). Everything else — the
/// server's tables, the client's calls, the codecs' property keys — uses the constants, so
/// renaming a member is one edit and a typo is a compile error.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BusNamesWrittenOnceTests {
    /// Modules that never spell our bus: the generic D-Bus module (it cannot see the contract),
    /// the terminal layouts (column headings such as "State" are words for people) and the harness.
    static let outside = ["DBus/", "AlmanacViews/", "TestHarness/"]
    /// Literals that equal a member name but are no member of ours, with where and why.
    static let allowed: Set<String> = [
        // The action label of org.freedesktop.Notifications' Notify, shown to the user.
        "AlmanacBus/Server/DesktopNotifier.swift: \"Download\"",
        // NetworkManager's property `State` (org.freedesktop.NetworkManager), not Download1's.
        "AlmanacBus/Machine/NetworkManagerReading.swift: \"State\"",
    ]

    @Test func noMemberNameIsWrittenOutsideTheContract() throws {
        let members = try ContractNames.all()
        #expect(members.count > 70, "the names were read: \(members.count)")
        let found = try literals { $0.firstMatch(of: /^\w+$/) != nil && members.contains($0) }
            .filter { !$0.hasPrefix("AlmanacWire/Contract/BusContract+Names.swift") }
        #expect(found.isEmpty, "use BusContract's MemberName constants instead:\n\(found.joined(separator: "\n"))")
    }

    @Test func interfaceNamesAreWrittenOnlyInBusContract() throws {
        let found = try literals { $0.hasPrefix("org.almanac.") && !$0.hasPrefix("org.almanac.Error.") }
            .filter { !$0.hasPrefix("AlmanacWire/Contract/BusContract.swift") }
        #expect(found.isEmpty, "use BusContract's names instead:\n\(found.joined(separator: "\n"))")
    }

    @Test func errorNamesAreWrittenOnlyInClientErrorName() throws {
        let found = try literals { $0.hasPrefix("org.almanac.Error.") }
        #expect(found.map { String($0.prefix { $0 != ":" }) } == ["AlmanacModels/Errors/ClientErrorName.swift"],
                "use ClientErrorName's names (BusContract's, on the wire) instead:\n\(found.joined(separator: "\n"))")
    }

    /// `file:line: "literal"` for every string literal outside comments that `matches`,
    /// less the allowed ones.
    private func literals(_ matches: (String) -> Bool) throws -> [String] {
        let sources = SourceTree.path("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }
            .filter { file in file.hasSuffix(".swift") && !Self.outside.contains { file.hasPrefix($0) } }
        #expect(files.count > 100, "the sources were found: \(files.count)")
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//") else { continue }
                for literal in line.matches(of: /"([^"\\]*)"/) where matches(String(literal.1)) {
                    guard !Self.allowed.contains("\(file): \"\(literal.1)\"") else { continue }
                    found.append("\(file):\(number + 1): \"\(literal.1)\"")
                }
            }
        }
        return found
    }
}
