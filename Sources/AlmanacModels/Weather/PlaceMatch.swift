/// One place a geocoder found for a name, with what tells it apart from the others of that
/// name (`almanac locations search`).
public struct PlaceMatch: Sendable, Hashable, Codable {
    /// The geocoder's id for it (GeoNames'), which names it exactly: `id:2950159`.
    public var id: Int?
    public var name: String
    /// The state, province or region ("Illinois").
    public var region: String?
    public var country: String?
    /// ISO 3166-1 alpha-2 ("US").
    public var countryCode: String?
    public var latitude: Double
    public var longitude: Double
    public var population: Int?
    /// Its time zone ("America/Chicago").
    public var timezone: String?

    public init(id: Int?, name: String, region: String?, country: String?, countryCode: String?, latitude: Double, longitude: Double,
                population: Int? = nil, timezone: String? = nil) {
        self.id = id
        self.name = name
        self.region = region
        self.country = country
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.population = population
        self.timezone = timezone
    }

    /// "Springfield, Illinois, United States": name, region and country, without repeats.
    public var displayName: String {
        [name, region, country].compactMap { $0 }.filter { !$0.isEmpty }.reduce(into: [String]()) { names, part in
            if !names.contains(part) { names.append(part) }
        }.joined(separator: ", ")
    }
}
