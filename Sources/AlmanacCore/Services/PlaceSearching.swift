public import AlmanacModels
/// Finds the places a name may mean (`Weather1.SearchPlaces`); the daemon gives the weather
/// adapter its weather provider's geocoder.
public protocol PlaceSearching: Sendable {
    /// Up to `count` places matching `name`, best first. Throws when the geocoder cannot be asked.
    func searchPlaces(_ name: String, count: Int) async throws -> [PlaceMatch]
}
