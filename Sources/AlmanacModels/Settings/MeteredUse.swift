/// What almanacd does by itself on a metered connection (the `metered` setting): `pause`
/// (the default) holds auto-downloads back and reads feeds at most hourly; `allow` does as
/// on any other connection. What the user asks for goes either way.
public enum MeteredUse: String, CaseIterable, Sendable, Hashable, Codable {
    case allow
    case pause
}
