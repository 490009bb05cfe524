/// How much of a plant's pollen is in the air, in words: MeteoSwiss's bands for alder, birch,
/// grass and ragweed (grains/m³, the lower bound of each level); mugwort's and olive's follow
/// ragweed's and grass's, the plants they are usually ranked with (docs/decisions.md).
public enum PollenLevel: Int, Sendable, Comparable, CaseIterable {
    case none, low, moderate, high, veryHigh

    /// The lower bounds of low, moderate, high and very high, grains/m³, for each plant.
    static let bands: [String: [Double]] = [
        "alder": [1, 10, 70, 250],
        "birch": [1, 10, 70, 300],
        "grass": [1, 20, 50, 150],
        "mugwort": [1, 6, 11, 40],
        "olive": [1, 20, 50, 150],
        "ragweed": [1, 6, 11, 40],
    ]

    /// The level of `grains` of `plant`'s pollen per cubic metre (`nil` for an unknown plant
    /// or a count that is not a number).
    public init?(plant: String, grains: Double) {
        guard let bounds = Self.bands[plant], grains.isFinite else { return nil }
        self = Self(rawValue: bounds.filter { grains >= $0 }.count) ?? .none
    }

    public var name: String {
        switch self {
        case .none: "none"
        case .low: "low"
        case .moderate: "moderate"
        case .high: "high"
        case .veryHigh: "very high"
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
