import Foundation

/// The member names `Sources/AlmanacWire/Contract/BusContract+Names.swift` declares, read from
/// the file itself: the one place in Sources a member of our interfaces is spelled. Each
/// `public enum Document1 {` group names the members of `org.almanac.Document1`: its typed
/// definitions of methods, signals and properties (`= BusMethod<…>("GetState", …)`,
/// `= BusSignal<…>("Changed", …)`, `= BusProperty<…>("Revision", …)`), one a line, and the
/// names of members not yet typed (`: MemberName = "Submit"`).
public enum ContractNames {
    /// The file the names are declared in, relative to the top folder.
    public static let file = "Sources/AlmanacWire/Contract/BusContract+Names.swift"

    /// Interface name (`org.almanac.Document1`) → the member names declared for it.
    public static func byInterface() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: SourceTree.path(file), encoding: .utf8)
        var interfaces: [String: Set<String>] = [:]
        var current: String?
        for line in text.split(separator: "\n") {
            if let group = line.firstMatch(of: /public enum (\w+) \{/) {
                current = "org.almanac.\(group.1)"
            } else if let member = line.firstMatch(of: /(?:: MemberName = |= Bus(?:Method|Signal|Property)<.*>\()"(\w+)"/), let current {
                interfaces[current, default: []].insert(String(member.1))
            }
        }
        return interfaces
    }

    /// Every member name declared, whatever its interface.
    public static func all() throws -> Set<String> {
        try byInterface().values.reduce(into: []) { $0.formUnion($1) }
    }
}
