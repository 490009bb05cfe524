/// Where a place name was found to be: its display name and coordinates. Once a place has
/// been resolved, it keeps them (a saved place across restarts), so it never drifts to
/// another match of the same name.
public struct ResolvedPlace: Sendable, Hashable, Codable {
    /// "Springfield, Illinois, United States".
    public var name: String
    public var latitude: Double
    public var longitude: Double

    public init(name: String, latitude: Double, longitude: Double) {
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
    }
}
