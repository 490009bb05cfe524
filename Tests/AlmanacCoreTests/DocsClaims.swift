import Foundation

/// The rules `DocsClaimsTests` holds docs/ to, as functions of text, so each can be shown a
/// page that breaks it. Each returns its findings as `docs/PAGE.md:LINE: what is wrong`.
enum DocsClaims {
    /// Where a path of the repository starts.
    static let topFolders = ["Sources", "Tests", "scripts", "docs", "Benchmarks", "systemd", "packaging", "Examples"]
    /// The kinds of file whose names the docs give.
    static let fileKinds = ["swift", "py", "md", "sh", "conf"]
    /// Names that look like a file of ours and are not, each with why.
    static let notOurs: [String: String] = [
        "DESIGN.md": "the team's shared design notes (/work/shared), outside the repository",
        "shared/DESIGN.md": "the same, by its folder",
        "SQLite.swift": "a third-party Swift library, named in a decision against it",
        "mygpo/subscriptions/__init__.py": "gpodder.net's server source, cited in sync.md",
        "mygpo/api/subscriptions.py": "gpodder.net's server source, cited in sync.md",
        "services/subscriptions.py": "gpodder-fastapi-router's source, cited in sync.md",
        "services/episodes.py": "gpodder-fastapi-router's source, cited in sync.md",
    ]

    /// (a), (b): every repository path (`Sources/…`, `Tests/…`, … in or out of backticks) exists,
    /// and every other `Name.swift` (or .py, .md, .sh, .conf) names a file somewhere in the tree.
    /// Absolute and home paths (`/usr/…`, `~/.config/…`) are the user's, not the repository's;
    /// a path followed by `*`, `…`, `{` or `<` is a pattern, not a file.
    static func paths(_ page: DocsPage, exists: (String) -> Bool, fileNames: Set<String>) throws -> [String] {
        let tops = topFolders.joined(separator: "|"), kinds = fileKinds.joined(separator: "|")
        // A path starts the line or follows a character that cannot be part of one.
        let pattern = try Regex("(?:^|[^\\w/.~$-])((?:(?:\(tops))/[\\w+./-]*)|[\\w+./-]*[\\w+-]\\.(?:\(kinds)))(?![\\w/])", as: (Substring, Substring).self)
        return page.flat.matches(of: pattern).compactMap { whole in
            let match = whole.output.1
            var path = String(match)
            while path.hasSuffix(".") { path.removeLast() }
            let next = page.flat[match.endIndex...].first
            guard notOurs[path] == nil, !path.hasPrefix("/"), !"*…{<".contains(next ?? " ") else { return nil }
            let ours = topFolders.contains { path.hasPrefix($0 + "/") }
            let found = ours ? exists(path) : fileNames.contains(String(path.split(separator: "/").last ?? ""))
            return found ? nil : "\(page.location(match.startIndex)): \(path) \(ours ? "does not exist" : "is no file in the tree")"
        }
    }

    /// (d): the log labels a page names: each run of backticked `almanac…` names after "label"
    /// or "labels", with where it is.
    static func labelLists(_ page: DocsPage) -> [(location: String, labels: [String])] {
        page.flat.matches(of: /[Ll]abels?:? \(?((?:`almanac[^`]*`(?:,? and |, )?)+)/).map { match in
            (page.location(match.range.lowerBound), match.output.1.matches(of: /`([^`]+)`/).map { String($0.output.1) })
        }
    }

    /// The `Logger(label:)` labels of ours (`almanac…`) in a source file's text.
    static func loggerLabels(in code: String) -> Set<String> {
        Set(code.matches(of: /Logger\(label: "(almanac[^"]*)"/).map { String($0.output.1) })
    }

    /// (c): architecture.md's module table: each row's module and the modules and products its
    /// last column names (words that are a target's or product's name; the prose around them is
    /// not read), with where it is.
    static func moduleRows(_ page: DocsPage, names: Set<String>) -> [(location: String, module: String, dependsOn: Set<String>)] {
        let section = page.section("## Modules")
        return section.lines.enumerated().compactMap { index, line in
            let columns = line.split(separator: "|", omittingEmptySubsequences: false)
            guard columns.count >= 4, let module = columns[1].firstMatch(of: /^ `([\w-]+)` $/)?.output.1 else { return nil }
            let words = columns[columns.count - 2].matches(of: /[A-Za-z][\w-]*/).map { String($0.output) }
            return ("\(page.name):\(section.first + index)", String(module), Set(words.filter(names.contains)))
        }
    }

    /// (e): Walk 1's figures add up: "**Hops: N**" is its table's row count, "in N modules (…)"
    /// names N modules including every module of a file in its table, and "the rules are in N of
    /// its steps (…)" names N steps.
    static func walkFigures(_ page: DocsPage, modules: Set<String>) -> [String] {
        let section = page.section("## Walk 1")
        let rows = section.lines.filter { $0.firstMatch(of: /^\| \d+ \|/) != nil }
        let text = section.lines.joined(separator: " ")
        let here = "\(page.name):\(section.first)"
        var found: [String] = []
        let hops = text.firstMatch(of: /\*\*Hops: (\d+)\*\*/).map { Int($0.output.1) ?? -1 }
        if hops != rows.count { found.append("\(here): Walk 1 says \(hops.map(String.init) ?? "no") hops; its table has \(rows.count) steps") }
        let files = Set(rows.flatMap { $0.matches(of: /Sources\/([\w-]+)\//).map { String($0.output.1) } })
        if let stated = text.firstMatch(of: /in (\d+) modules \(([^)]*)\)/) {
            let named = Set(stated.output.2.matches(of: /[A-Za-z][\w-]*/).map { String($0.output) }.filter(modules.contains))
            if Int(stated.output.1) != named.count { found.append("\(here): Walk 1 says \(stated.output.1) modules and names \(named.count): \(named.sorted())") }
            if !files.isSubset(of: named) { found.append("\(here): Walk 1's modules leave out those of its files: \(files.subtracting(named).sorted())") }
        } else {
            found.append("\(here): Walk 1 does not say its modules (\"in N modules (…)\")")
        }
        if let rules = text.firstMatch(of: /rules are in (\d+) of (?:them|its steps) \(([^)]*)\)/) {
            let steps = rules.output.2.matches(of: /\d+/).count
            if Int(rules.output.1) != steps { found.append("\(here): Walk 1 says the rules are in \(rules.output.1) steps and names \(steps)") }
        }
        return found
    }
}
