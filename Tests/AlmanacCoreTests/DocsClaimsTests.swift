import Foundation
import TestHarness
import Testing

/// docs/ describes the code as built; what of it a script can check, it checks (issue 40):
/// (a) the repository paths it gives exist, (b) the file names it gives are files of ours,
/// (c) architecture.md's modules and what each depends on are Package.swift's, and so is
/// what each program links, (d) the log labels it names are the labels of Sources (almanacd's subsystems),
/// where a page lists them all exactly those, (e) Walk 1's figures add up. Each finding is
/// `docs/PAGE.md:LINE`. The rules are in `DocsClaims`.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DocsClaimsTests {
    /// C libraries' headers: named in the rows of the modules over them, not rows of their own.
    static let cHeaders: Set<String> = ["CDBus", "CSQLite", "CCurl"]
    /// Pages whose label list claims every label of a part of Sources: the page, and that part.
    /// (architecture.md's list of subsystems is checked by `LoggersPassedInTests`; AlmanacCore's
    /// parts log under the subsystem almanacd gives them, so no page lists its own.)
    static let completeLabelLists: [String: String] = [:]

    static func pages() throws -> [DocsPage] {
        let docs = SourceTree.path("docs")
        return try FileManager.default.contentsOfDirectory(atPath: docs).filter { $0.hasSuffix(".md") }.sorted().map { file in
            DocsPage(name: "docs/" + file, text: try String(contentsOfFile: docs + "/" + file, encoding: .utf8))
        }
    }

    static func manifest() throws -> PackageManifest {
        PackageManifest(text: try String(contentsOfFile: SourceTree.path("Package.swift"), encoding: .utf8))
    }

    /// Every file and folder below the top folder, relative to it, but hidden ones (the build's, git's).
    static func tree() throws -> [String] {
        let walker = try #require(FileManager.default.enumerator(atPath: SourceTree.root.path))
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            if path.split(separator: "/").last?.hasPrefix(".") == true { walker.skipDescendants(); continue }
            files.append(path)
        }
        return files
    }

    @Test func pathsAndFileNamesInTheDocsExist() throws {
        let pages = try Self.pages()
        #expect(pages.count > 15, "the pages were found: \(pages.count)")
        let names = Set(try Self.tree().map { String($0.split(separator: "/").last ?? "") })
        let found = try pages.flatMap { page in
            try DocsClaims.paths(page, exists: { FileManager.default.fileExists(atPath: SourceTree.path($0)) }, fileNames: names)
        }
        #expect(found.isEmpty, "a path or file name in docs/ that is not in the repository:\n\(found.joined(separator: "\n"))")
    }

    @Test func architecturesModulesAndTheirDependenciesArePackageSwifts() throws {
        let manifest = try Self.manifest()
        let page = try #require(try Self.pages().first { $0.name == "docs/architecture.md" })
        let names = Set(manifest.targets.map(\.name) + manifest.targets.flatMap(\.products))
        let rows = DocsClaims.moduleRows(page, names: names)
        var found: [String] = []
        for row in rows {
            guard let target = manifest[row.module] else { found.append("\(row.location): `\(row.module)` is no target of Package.swift"); continue }
            // Every target takes Locking (the manifest's closing loop); the table does not repeat it.
            let stated = target.targets.subtracting(["Locking"]).union(target.products)
            if row.dependsOn != stated {
                found.append("\(row.location): `\(row.module)` depends on \(stated.sorted()) in Package.swift; the row says \(row.dependsOn.sorted())")
            }
        }
        // Each module of Sources (a target at its default folder) has its row.
        let modules = manifest.targets.filter { $0.path == nil && $0.kind != "testTarget" && !Self.cHeaders.contains($0.name) }.map(\.name)
        #expect(modules.count > 10, "the targets were read: \(modules)")
        for module in modules where !rows.contains(where: { $0.module == module }) {
            found.append("\(page.name): the module table has no row for `\(module)`")
        }
        #expect(found.isEmpty, "architecture.md's module table against Package.swift:\n\(found.joined(separator: "\n"))")
    }

    /// architecture.md's "Which program links what": the two columns are what the programs link.
    @Test func whatEachProgramLinksIsPackageSwifts() throws {
        let manifest = try Self.manifest()
        let text = try String(contentsOfFile: SourceTree.path("docs/architecture.md"), encoding: .utf8)
        let block = try #require(DocsPage.fencedBlocks(in: text).first { $0.lines.first?.contains("almanac and almanacd") == true })
        let column = try #require(block.lines[0].range(of: "almanac and almanacd")).lowerBound.utf16Offset(in: block.lines[0])
        let names = Set(manifest.targets.map(\.name))
        func words(_ part: (String) -> String) -> Set<String> {
            Set(block.lines.dropFirst(2).flatMap { part($0).matches(of: /[A-Za-z][\w-]*/).map { String($0.output) } }.filter(names.contains))
        }
        let daemonOnly = words { String($0.prefix(column)) }
        let both = words { String($0.dropFirst(column)) }
        // Locking too, which every target takes (the manifest's closing loop).
        let cli = manifest.closure(of: "almanac").subtracting(Self.cHeaders).subtracting(["almanac"]).union(["Locking"])
        let daemon = manifest.closure(of: "almanacd").subtracting(Self.cHeaders).subtracting(["almanacd"]).union(["Locking"])
        #expect(both == cli, "docs/architecture.md:\(block.line): the CLI links \(cli.sorted()); the block says \(both.sorted())")
        #expect(daemonOnly == daemon.subtracting(cli), "docs/architecture.md:\(block.line): only almanacd links \(daemon.subtracting(cli).sorted()); the block says \(daemonOnly.sorted())")
    }

    @Test func theLogLabelsInTheDocsAreThoseOfSources() throws {
        let sources = SourceTree.path("Sources")
        var labels: [String: Set<String>] = [:]  // file below Sources → its labels
        for file in try Self.tree().filter({ $0.hasPrefix("Sources/") && $0.hasSuffix(".swift") && !$0.hasPrefix("Sources/TestHarness/") }) {
            let found = DocsClaims.loggerLabels(in: try String(contentsOfFile: SourceTree.path(file), encoding: .utf8))
            if !found.isEmpty { labels[String(file.dropFirst("Sources/".count))] = found }
        }
        // Every part's logger is almanacd's root with its `subsystem` (Logger+Subsystem.swift):
        // the labels are the subsystems' names.
        let subsystems = try String(contentsOfFile: SourceTree.path("Sources/almanacd/Subsystem.swift"), encoding: .utf8)
        labels["almanacd/Subsystem.swift", default: []].formUnion(subsystems.matches(of: /case \w+ = "(almanac[^"]*)"/).map { String($0.output.1) })
        let all = labels.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        #expect(all.count > 5, "the labels were read below \(sources): \(all.sorted())")
        var found: [String] = []
        for page in try Self.pages() {
            for list in DocsClaims.labelLists(page) {
                let named = Set(list.labels)
                if let part = Self.completeLabelLists[page.name] {
                    let used = labels.filter { $0.key.hasPrefix(part) }.values.reduce(into: Set<String>()) { $0.formUnion($1) }
                    if named != used { found.append("\(list.location): lists \(named.sorted()); Sources/\(part) logs under \(used.sorted())") }
                } else if !named.isSubset(of: all) {
                    found.append("\(list.location): \(named.subtracting(all).sorted()) is no label of Sources")
                }
            }
        }
        #expect(found.isEmpty, "log labels in docs/ against Sources:\n\(found.joined(separator: "\n"))")
    }

    @Test func walkOnesFiguresAddUp() throws {
        let page = try #require(try Self.pages().first { $0.name == "docs/architecture.md" })
        let found = DocsClaims.walkFigures(page, modules: Set(try Self.manifest().targets.map(\.name)))
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// Each rule finds what it looks for (a check that cannot fail proves nothing).
    @Test func theRulesFindWhatTheyLookFor() throws {
        let page = DocsPage(name: "docs/x.md", text: """
            # X
            See `Sources/Nowhere/Gone.swift` and Missing.swift, `~/.config/almanac/a.conf`, `/etc/b.conf`, `Tests/Fixtures/*.py`.
            ```
            Sources/InAFence/Skipped.swift
            ```
            Not labels: `{{x}}`. The labels `almanac.weather`,
            `almanac.nothing` and `almanacd`.
            ## Modules
            | module | holds | depends on |
            |---|---|---|
            | `almanac` | the CLI | AlmanacWire, swift-log's `Logging` |
            ## Walk 1
            | 1 | Sources/almanac/A.swift | f | g |
            | 2 | Sources/AlmanacBus/B.swift | f | g |
            **Hops: 3** steps, in 2 modules (almanac, AlmanacCore); the rules are in 2 of its steps (9).
            """)
        let paths = try DocsClaims.paths(page, exists: { _ in false }, fileNames: ["Present.swift"])
        #expect(paths == ["docs/x.md:2: Sources/Nowhere/Gone.swift does not exist", "docs/x.md:2: Missing.swift is no file in the tree",
                          "docs/x.md:13: Sources/almanac/A.swift does not exist", "docs/x.md:14: Sources/AlmanacBus/B.swift does not exist"])
        #expect(DocsClaims.labelLists(page).map(\.labels) == [["almanac.weather", "almanac.nothing", "almanacd"]])
        #expect(DocsClaims.labelLists(page).map(\.location) == ["docs/x.md:6"])
        #expect(DocsClaims.loggerLabels(in: #"let a = Logger(label: "almanac.x"), b = Logger(label: "test")"#) == ["almanac.x"])
        let rows = DocsClaims.moduleRows(page, names: ["almanac", "AlmanacWire", "Logging"])
        #expect(rows.map(\.module) == ["almanac"] && rows.first?.dependsOn == ["AlmanacWire", "Logging"] && rows.first?.location == "docs/x.md:11")
        #expect(DocsClaims.walkFigures(page, modules: ["almanac", "AlmanacBus", "AlmanacCore"]) == [
            "docs/x.md:12: Walk 1 says 3 hops; its table has 2 steps",
            "docs/x.md:12: Walk 1's modules leave out those of its files: [\"AlmanacBus\"]",
            "docs/x.md:12: Walk 1 says the rules are in 2 steps and names 1",
        ])
        let manifest = PackageManifest(text: """
            .target(name: "A", dependencies: ["B", .product(name: "Logging", package: "swift-log")]),
            // "C" in a comment is no dependency.
            .executableTarget(name: "B", dependencies: [
                "C",
            ], path: "Examples/b"),
            .systemLibrary(name: "C", pkgConfig: "c", providers: [.apt(["libc-dev"])]),
            """)
        #expect(manifest.targets.map(\.name) == ["A", "B", "C"])
        #expect(manifest["A"]?.targets == ["B"] && manifest["A"]?.products == ["Logging"] && manifest["B"]?.path == "Examples/b")
        #expect(manifest.closure(of: "A") == ["A", "B", "C"] && manifest["C"]?.targets == [])
    }
}
