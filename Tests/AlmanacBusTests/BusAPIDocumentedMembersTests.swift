import Foundation
import TestHarness
import Testing

/// docs/bus-api.md's member tables name exactly the members `BusContract+Names.swift`
/// declares, interface by interface — the ones the live daemon serves (`ServedMembersTests`).
/// A member added to the code but not to the page, or left on the page after it went, fails.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BusAPIDocumentedMembersTests {
    /// Interface → the members in the first column of the table under its `## ` heading (up to
    /// the next heading of any level): `` `GetState()` ``, `` `Revision` `` and `` `Received`, `Total` `` alike.
    static func documented() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: SourceTree.path("docs/bus-api.md"), encoding: .utf8)
        var tables: [String: Set<String>] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") {
                current = line.firstMatch(of: /^## `(org\.almanac\.\w+)`/).map { String($0.1) }
            } else if let current, line.hasPrefix("| `") {
                // The first cell: one member, or several of one kind (`` `Received`, `Total` ``).
                let cell = line.dropFirst(2).prefix { $0 != "|" }
                for member in cell.matches(of: /`(\w+)[`(]/) { tables[current, default: []].insert(String(member.1)) }
            }
        }
        return tables
    }

    @Test func everyInterfacesTableNamesTheDeclaredMembers() throws {
        let declared = try ContractNames.byInterface()
        let documented = try Self.documented()
        #expect(declared.count >= 7 && documented.count >= 7, "read: \(declared.keys.sorted()), \(documented.keys.sorted())")
        for interface in Set(declared.keys).union(documented.keys).sorted() {
            let code = declared[interface] ?? []
            let page = documented[interface] ?? []
            #expect(code.subtracting(page).isEmpty, "\(interface): declared but not in docs/bus-api.md: \(code.subtracting(page).sorted())")
            #expect(page.subtracting(code).isEmpty, "\(interface): in docs/bus-api.md but not declared: \(page.subtracting(code).sorted())")
        }
    }
}
