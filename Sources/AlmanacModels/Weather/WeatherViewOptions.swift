/// What a weather view watches: one place, or (`nil`) every place.
public struct WeatherViewOptions: ViewOptions {
    /// The place, as the view names it (`"Berlin"`, `"52.52,13.41"`, `"here"`).
    public var location: String?

    public init() {}

    public init(location: String?) {
        self.location = location
    }
}
