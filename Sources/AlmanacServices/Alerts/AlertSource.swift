/// A keyless public source of official alerts, chosen by where a place is: the country its
/// name ends with when a source serves that country, else its coordinates in the source's
/// coarse boxes (docs/decisions.md says why).
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
        return allCases.first { source in source.boxes.contains { $0.lat.contains(latitude) && $0.lon.contains(longitude) } }
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
        case .meteoalarm:
            MeteoAlarmCountry.all.flatMap { $0.boxes.map { ($0.latitude, $0.longitude) } }
        }
    }
}
