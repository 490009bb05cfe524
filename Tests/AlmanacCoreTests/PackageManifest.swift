import Foundation

/// Package.swift's targets as its text states them (read, not run): each target's name, kind,
/// folder and the targets and products its `dependencies:` name. The loop at the end of the
/// manifest (every target also takes `Locking`) is not read: the docs do not repeat it either.
struct PackageManifest {
    struct Target {
        let name: String
        /// `target`, `executableTarget`, `testTarget` or `systemLibrary`.
        let kind: String
        /// The `path:` argument; `nil` for the default, `Sources/<name>` (or `Tests/<name>`).
        let path: String?
        let targets: Set<String>
        let products: Set<String>
    }

    let targets: [Target]

    init(text: String) {
        // Comments dropped, so nothing quoted in them is read as a name.
        let code = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "") }
            .joined(separator: "\n")
        let starts = code.matches(of: /\.(target|executableTarget|testTarget|systemLibrary)\(/)
        targets = starts.enumerated().compactMap { index, start in
            let end = index + 1 < starts.count ? starts[index + 1].range.lowerBound : code.endIndex
            let chunk = code[start.range.upperBound..<end]
            guard let name = chunk.firstMatch(of: /name: "([^"]+)"/)?.output.1 else { return nil }
            let dependencies = Self.dependencies(in: chunk)
            let products = Set(dependencies.matches(of: /\.product\(name: "([^"]+)"/).map { String($0.output.1) })
            let targets = Set(dependencies.replacing(/\.product\([^)]*\)/, with: "").matches(of: /"([^"]+)"/).map { String($0.output.1) })
            return Target(name: String(name), kind: String(start.output.1), path: chunk.firstMatch(of: /path: "([^"]+)"/).map { String($0.output.1) },
                          targets: targets, products: products)
        }
    }

    /// The text inside `dependencies: [ … ]`, brackets matched; empty when there is none.
    static func dependencies(in chunk: Substring) -> Substring {
        guard let open = chunk.firstMatch(of: /dependencies: \[/) else { return "" }
        var depth = 1
        var index = open.range.upperBound
        while index < chunk.endIndex, depth > 0 {
            if chunk[index] == "[" { depth += 1 } else if chunk[index] == "]" { depth -= 1 }
            index = chunk.index(after: index)
        }
        return chunk[open.range.upperBound..<index]
    }

    subscript(name: String) -> Target? { targets.first { $0.name == name } }

    /// The targets `name` links, itself included, following target dependencies (not products).
    func closure(of name: String) -> Set<String> {
        var found: Set<String> = []
        var next = [name]
        while let name = next.popLast() {
            guard found.insert(name).inserted, let target = self[name] else { continue }
            next += target.targets
        }
        return found
    }
}
