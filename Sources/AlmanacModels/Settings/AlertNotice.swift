/// The `weather-alerts` setting: which official alerts at a wanted place bring a desktop
/// notification. `severe` (the default): severe and extreme ones; `all`: every one; `off`: none.
public enum AlertNotice: String, Sendable, Hashable, Codable, CaseIterable {
    case off
    case severe
    case all

    /// Whether an alert of `severity` is notified.
    public func notifies(_ severity: AlertSeverity) -> Bool {
        switch self {
        case .off: false
        case .severe: severity >= .severe
        case .all: true
        }
    }
}
