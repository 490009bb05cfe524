import FoundationEssentials

/// The `wind-unit` setting: how wind speeds are shown, apart from `units`; `auto` (the
/// default) follows `units` (km/h for metric, mph for imperial). Models stay in km/h.
public enum WindUnit: String, Sendable, Hashable, Codable, CaseIterable {
    case auto
    case kilometresPerHour = "km/h"
    case metresPerSecond = "m/s"
    case milesPerHour = "mph"
    case knots = "kn"
    case beaufort = "bft"

    /// The unit shown: `auto` resolved against `units`.
    public func resolved(_ units: Units) -> WindUnit {
        guard self == .auto else { return self }
        return units == .metric ? .kilometresPerHour : .milesPerHour
    }

    /// `kilometresPerHour` in this unit (`auto` as km/h); Beaufort as its force number 0–12,
    /// by the WMO's upper limits in m/s.
    public func value(_ kilometresPerHour: Double) -> Double {
        switch self {
        case .auto, .kilometresPerHour: return kilometresPerHour
        case .metresPerSecond: return kilometresPerHour / 3.6
        case .milesPerHour: return kilometresPerHour / 1.609344
        case .knots: return kilometresPerHour / 1.852
        case .beaufort:
            guard kilometresPerHour.isFinite else { return .nan }
            let metresPerSecond = (kilometresPerHour / 3.6 * 10).rounded() / 10
            return Double(Self.beaufortLimits.firstIndex { metresPerSecond <= $0 } ?? 12)
        }
    }

    /// The highest wind of each force 0–11, m/s (WMO); above the last is force 12.
    static let beaufortLimits = [0.2, 1.5, 3.3, 5.4, 7.9, 10.7, 13.8, 17.1, 20.7, 24.4, 28.4, 32.6]

    /// The decimals a value in this unit is shown with.
    public var decimals: Int { self == .metresPerSecond ? 1 : 0 }

    /// The unit's symbol as shown after a number: "km/h", "m/s", "mph", "kn", "Bft".
    public var symbol: String { self == .beaufort ? "Bft" : (self == .auto ? "km/h" : rawValue) }
}
