import AlmanacModels
import FoundationEssentials

/// The places the offline demo provider knows, with their coordinates and a base climate.
enum DemoPlaces {
    struct Place {
        let name: String
        let latitude: Double
        let longitude: Double
        /// Typical temperature, °C.
        let base: Double
    }

    static let all: [Place] = [
        Place(name: "Berlin", latitude: 52.52, longitude: 13.41, base: 9),
        Place(name: "Paris", latitude: 48.85, longitude: 2.35, base: 12),
        Place(name: "London", latitude: 51.51, longitude: -0.13, base: 11),
        Place(name: "New York", latitude: 40.71, longitude: -74.01, base: 13),
        Place(name: "Tokyo", latitude: 35.69, longitude: 139.69, base: 16),
        Place(name: "Sydney", latitude: -33.87, longitude: 151.21, base: 18),
        Place(name: "Reykjavik", latitude: 64.15, longitude: -21.94, base: 4),
        Place(name: "Cape Town", latitude: -33.92, longitude: 18.42, base: 17),
        Place(name: "Mumbai", latitude: 19.08, longitude: 72.88, base: 27),
        Place(name: "São Paulo", latitude: -23.55, longitude: -46.63, base: 20),
    ]

    /// The place a location string names (case-insensitive), or coordinates given as
    /// `"latitude,longitude"`; `nil` for anything else.
    static func find(_ location: String) -> Place? {
        let wanted = location.lowercased()
        if let known = all.first(where: { $0.name.lowercased() == wanted }) { return known }
        let parts = location.split(separator: ",").map { Double($0.trimmed) }
        guard parts.count == 2, let latitude = parts[0], let longitude = parts[1],
              (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
        return Place(name: location, latitude: latitude, longitude: longitude, base: 27 - abs(latitude) / 3)
    }
}
