public import AlmanacModels

/// One place a search found, as `almanac locations search` lists it, with what tells it
/// apart: "Springfield, Illinois, United States  39.80,-89.64  pop. 116,250  id:4250542".
public struct PlaceMatchViewData: Sendable, Hashable {
    public let name: String
    /// "39.80,-89.64".
    public let coordinates: String
    /// "pop. 116,250", empty when unknown.
    public let population: String
    /// "id:4250542" (what `locations add` and `--location` take to mean exactly it), empty without one.
    public let id: String
    /// `--json`: `id`, `name`, `region`, `country`, `countryCode`, `latitude`, `longitude`,
    /// `population`, `timezone`, `displayName` (null when unknown).
    public let json: JSONValue

    public init(match: PlaceMatch) {
        name = match.displayName
        coordinates = fixedPoint(match.latitude, decimals: 2) + "," + fixedPoint(match.longitude, decimals: 2)
        population = match.population.map { "pop. " + PodcastSearchResultViewData.grouped($0) } ?? ""
        id = match.id.map { "id:\($0)" } ?? ""
        json = .object([
            "id": match.id.map { .integer(Int64($0)) } ?? .null, "name": .string(match.name), "displayName": .string(match.displayName),
            "region": .text(match.region), "country": .text(match.country), "countryCode": .text(match.countryCode),
            "latitude": .number(match.latitude, decimals: 5), "longitude": .number(match.longitude, decimals: 5),
            "population": match.population.map { .integer(Int64($0)) } ?? .null, "timezone": .text(match.timezone),
        ])
    }

    /// The list as a table: name, coordinates, population, id.
    public static func table(_ places: [PlaceMatchViewData]) -> Table {
        Table(
            [TableColumn("Place", shrink: (minimum: 16, priority: 10)), TableColumn("Coordinates"),
             TableColumn("Population", alignment: .right, drop: 10), TableColumn("Id")],
            rows: places.map { [StyledLine($0.name, .bold), StyledLine($0.coordinates), StyledLine($0.population), StyledLine($0.id)] }
        )
    }
}
