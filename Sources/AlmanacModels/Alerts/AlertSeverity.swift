/// How bad a warning is, in CAP's four levels (`unknown` when the source gives none).
public enum AlertSeverity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case unknown, minor, moderate, severe, extreme

    /// CAP's word ("Severe"), any case; `unknown` for anything else.
    public init(cap text: String) {
        self = AlertSeverity(rawValue: text.lowercased()) ?? .unknown
    }

    public static func < (lhs: AlertSeverity, rhs: AlertSeverity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
