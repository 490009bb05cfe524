import AlmanacModels

/// One warning of a MeteoAlarm country feed, with the areas it covers: each area's name
/// (CAP `areaDesc`) and its rings (CAP `polygon`), when the feed gives any.
struct MeteoAlarmWarning: Sendable {
    struct Area: Sendable {
        let name: String
        let polygons: [AlertPolygon]
    }

    let alert: WeatherAlert
    let areas: [Area]

    /// Whether the warning belongs to a place at (`latitude`, `longitude`) whose region
    /// names (from the geocoder: "Lyon", "Auvergne-Rhône-Alpes") are `regions`: an area with
    /// rings holds the point; an area without names one of the regions, word for word
    /// (letter case and spacing aside).
    func applies(latitude: Double, longitude: Double, regions: [String]) -> Bool {
        let wanted = Set(regions.map(Self.normalised))
        return areas.contains { area in
            area.polygons.isEmpty
                ? wanted.contains(Self.normalised(area.name))
                : area.polygons.contains { $0.contains(latitude: latitude, longitude: longitude) }
        }
    }

    static func normalised(_ name: String) -> String {
        name.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
    }
}
