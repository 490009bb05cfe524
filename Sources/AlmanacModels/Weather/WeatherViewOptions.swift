/// What a weather view watches: one place, or (`nil`) every place.
public struct WeatherViewOptions: ViewOptions, Codable {
    /// The place, as the view names it (`"Berlin"`, `"52.52,13.41"`, `"here"`).
    public var location: String?

    /// A view of every place.
    public init() {}

    /// A view of that one (`nil`: of every place).
    public init(location: String?) {
        self.location = location
    }
}
