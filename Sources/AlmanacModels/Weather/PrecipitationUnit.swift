import FoundationEssentials

/// The `precipitation-unit` setting: how amounts of rain and snow are shown, apart from
/// `units`; `auto` (the default) follows `units` (mm for metric, in for imperial). Models
/// stay in mm.
public enum PrecipitationUnit: String, Sendable, Hashable, Codable, CaseIterable {
    case auto
    case millimetres = "mm"
    case inches = "in"

    /// The unit shown: `auto` resolved against `units`.
    public func resolved(_ units: Units) -> PrecipitationUnit {
        guard self == .auto else { return self }
        return units == .metric ? .millimetres : .inches
    }

    /// `millimetres` in this unit (`auto` as mm).
    public func value(_ millimetres: Double) -> Double { self == .inches ? millimetres / 25.4 : millimetres }

    /// The decimals a value in this unit is shown with.
    public var decimals: Int { self == .inches ? 2 : 1 }
}
