/// A keyless public source of official alerts, chosen by where a place is: the country its
/// name ends with when a source serves that country, else its coordinates in the source's
/// coarse boxes, or for MetAlerts a coarse outline of Norway (docs/decisions.md says why).
public enum AlertSource: String, Sendable, CaseIterable {
    /// The US National Weather Service (`/alerts/active?point=`, GeoJSON).
    case nws
    /// MET Norway's MetAlerts 2.0 (`current.json?lat=&lon=`, GeoJSON): Norway, its waters and Svalbard.
    case metalerts
    /// MeteoAlarm (`/api/v1/warnings/feeds-<country>`, CAP as JSON): the rest of Europe.
    case meteoalarm

    /// The source covering (`latitude`, `longitude`), `nil` when none does. `placeName`, the
    /// geocoder's "Name, Region, Country", decides first when its country is one a source serves.
    public static func covering(latitude: Double, longitude: Double, placeName: String = "") -> AlertSource? {
        let country = placeName.split(separator: ",").last?.split(separator: " ").joined(separator: " ")
        if country == "Norway" { return .metalerts }
        if country == "United States" { return .nws }
        if MeteoAlarmCountry.named(in: placeName) != nil { return .meteoalarm }
        if norway.contains(latitude: latitude, longitude: longitude) { return .metalerts }
        return allCases.first { source in source.boxes.contains { $0.lat.contains(latitude) && $0.lon.contains(longitude) } }
    }

    /// Mainland Norway with its coastal waters, as latitude and longitude: generous at sea
    /// (a marine warning counts there), close to the land borders, so that Sweden, Finland
    /// and Russia beside it (inside any box that holds Norway) are not MetAlerts'.
    static let norway = AlertPolygon([
        (57.7, 4.0), (57.7, 7.5), (58.8, 10.8), (59.1, 11.4),                      // the North Sea, the Skagerrak, Svinesund
        (59.5, 11.75), (60.0, 12.45), (61.0, 12.65), (62.0, 12.25), (63.3, 12.1),  // the border with Sweden
        (64.5, 14.1), (65.6, 14.5), (66.1, 14.6), (67.1, 16.4), (67.9, 17.6), (68.4, 18.1),
        (69.06, 20.55), (69.3, 21.2), (68.6, 24.8), (69.45, 25.9), (69.92, 27.0),  // with Finland
        (70.1, 27.9), (69.05, 28.9), (69.8, 31.0),                                 // with Russia
        (71.5, 33.0), (71.5, 4.0),                                                 // the Barents and Norwegian Seas
    ])!

    /// Latitude and longitude ranges, generous at the coasts (a marine warning counts there).
    private var boxes: [(lat: ClosedRange<Double>, lon: ClosedRange<Double>)] {
        switch self {
        case .nws:
            [(24...50, -125 ... -66),    // the 48 states
             (51...72, -180 ... -129),   // Alaska
             (18...23, -161 ... -154),   // Hawaii
             (17.5...18.7, -68 ... -64)] // Puerto Rico and the Virgin Islands
        case .metalerts:
            [(74...81, 10...35)]         // Svalbard and Bear Island; the mainland is `norway`
        case .meteoalarm:
            MeteoAlarmCountry.all.flatMap { $0.boxes.map { ($0.latitude, $0.longitude) } }
        }
    }
}
