/// A keyless public source of official alerts, chosen by where a place is: its coordinates
/// fall in the source's coarse boxes (docs/decisions.md says why not the country code).
public enum AlertSource: String, Sendable, CaseIterable {
    /// The US National Weather Service (`/alerts/active?point=`, GeoJSON).
    case nws
    /// MET Norway's MetAlerts 2.0 (`current.json?lat=&lon=`, GeoJSON): Norway, its waters and Svalbard.
    case metalerts

    /// The source covering (`latitude`, `longitude`), `nil` when none does.
    public static func covering(latitude: Double, longitude: Double) -> AlertSource? {
        allCases.first { source in source.boxes.contains { $0.lat.contains(latitude) && $0.lon.contains(longitude) } }
    }

    /// Latitude and longitude ranges, generous at the coasts (a marine warning counts there).
    private var boxes: [(lat: ClosedRange<Double>, lon: ClosedRange<Double>)] {
        switch self {
        case .nws:
            [(24...50, -125 ... -66),    // the 48 states
             (51...72, -180 ... -129),   // Alaska
             (18...23, -161 ... -154),   // Hawaii
             (17.5...18.7, -68 ... -64)] // Puerto Rico and the Virgin Islands
        case .metalerts:
            [(57.5...71.5, 4...31.5),    // Norway and its coast
             (74...81, 10...35)]         // Svalbard and Bear Island
        }
    }
}
