/// A place asked for that has no reading to show, and why: "Atlantis: no such place", or
/// "Berlin: no reading yet" while its first fetch is under way.
public struct UnavailablePlaceViewData: Sendable, Hashable {
    public let location: String
    /// Why its last fetch failed; `nil` when none failed (it is still to come).
    public let failure: String?

    public init(location: String, failure: String?) {
        self.location = location
        self.failure = failure
    }

    /// "Atlantis: no such place" / "Berlin: no reading yet".
    public var text: String { "\(location): \(failure ?? "no reading yet")" }

    /// A template's fields for it: every weather field empty but `location`, `place` and
    /// `error`, so that `{{temperature|-}}` falls back and `{{error}}` says why.
    public var fields: [String: String] {
        var fields = Dictionary(uniqueKeysWithValues: WeatherNowViewData.fieldNames.map { ($0, "") })
        fields["location"] = location
        fields["place"] = location
        fields["error"] = failure ?? ""
        return fields
    }

    /// The place as a waybar module shows a failure; `nil` while none failed.
    public var waybar: WaybarViewData? { failure.map { WaybarViewData(location: location, failure: $0) } }
}
