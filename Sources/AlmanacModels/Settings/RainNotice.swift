import FoundationEssentials

/// The `rain-notify` setting: a notification when rain is to start within this long at a
/// saved place or "here", once per spell; `off` (the default): none.
public enum RainNotice: String, Sendable, Hashable, Codable, CaseIterable {
    case off
    case fifteenMinutes = "15m"
    case thirtyMinutes = "30m"
    case sixtyMinutes = "60m"

    /// How long before rain starts a notification comes, minutes; `nil` when off.
    public var lead: Int? {
        switch self {
        case .off: nil
        case .fifteenMinutes: 15
        case .thirtyMinutes: 30
        case .sixtyMinutes: 60
        }
    }
}
