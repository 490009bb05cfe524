import FoundationEssentials

/// Pollen in the air at a place, grains per cubic metre, from a provider's air-quality model
/// (Open-Meteo's gives it for Europe only, during each plant's season). Each value is `nil`
/// when the provider does not give it.
public struct Pollen: Sendable, Hashable, Codable {
    public var alder: Double?
    public var birch: Double?
    public var grass: Double?
    public var mugwort: Double?
    public var olive: Double?
    public var ragweed: Double?

    public init(alder: Double? = nil, birch: Double? = nil, grass: Double? = nil, mugwort: Double? = nil, olive: Double? = nil, ragweed: Double? = nil) {
        self.alder = alder
        self.birch = birch
        self.grass = grass
        self.mugwort = mugwort
        self.olive = olive
        self.ragweed = ragweed
    }

    /// Each plant's name and its count, in a fixed order (the order of `PollenLevel.bands`).
    public var counts: [(plant: String, grains: Double?)] {
        [("alder", alder), ("birch", birch), ("grass", grass), ("mugwort", mugwort), ("olive", olive), ("ragweed", ragweed)]
    }

    /// Whether the provider gave no count at all (outside Europe).
    public var isEmpty: Bool { counts.allSatisfy { $0.grains == nil } }
}
