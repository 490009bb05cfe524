public import AlmanacModels
public import DBus

/// A weather view's options as the daemon reads them (`AddView`, `SetOptions`): `{"location": <s>}`,
/// or none for every place (a client writes them as `WeatherViewOptions` is shaped).
extension WeatherCodec {
    static let locationOption = "location"

    /// Reads a weather view's options strictly: only `location`, a string naming a place (not
    /// blank, on one line); `InvalidArgs` otherwise.
    public static func viewOptions(_ values: [String: Value]) throws -> WeatherViewOptions {
        let reader = try OptionsReader(values, allowed: [locationOption], what: "view option")
        let location = try reader.string(locationOption)
        if let location, location.trimmed.isEmpty || location.hasControlCharacters {
            throw BusError.invalidArgs("The view option 'location' names a place, such as \"Berlin\" or \"52.52,13.41\": not blank, on one line.")
        }
        return WeatherViewOptions(location: location)
    }
}
