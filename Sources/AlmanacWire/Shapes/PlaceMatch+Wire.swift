public import AlmanacModels
public import DBus

extension PlaceMatch: WireShaped {
    /// A place a search found (`Weather1.SearchPlaces`), its keys sorted: the match's own
    /// (`name`, `latitude`, `longitude`, and `id x`, `region`, `country`, `countryCode`,
    /// `population x`, `timezone` when the geocoder gives them) and `displayName`, which a
    /// client shows and the match is read back without.
    public struct Wire: Codable, SortedKeys, DictionaryTyped {
        @Flattened var match: PlaceMatch
        var displayName: String
    }

    public var wire: Wire { Wire(match: self, displayName: displayName) }

    public init(wire: Wire) { self = wire.match }
}
