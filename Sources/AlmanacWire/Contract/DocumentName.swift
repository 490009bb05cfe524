/// The documents the daemon keeps.
public enum DocumentName: String, Sendable, CaseIterable, Hashable {
    case weather, podcasts
}
