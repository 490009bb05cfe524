/// The official alerts in force at one place, as last fetched. When a fetch fails the last
/// good alerts stay, `stale`, with the failure in `error`.
public struct PlaceAlerts: Sendable, Hashable, Codable {
    public var alerts: [WeatherAlert]
    /// The last fetch failed: these are the last good ones.
    public var stale: Bool
    /// Why the last fetch failed ("nws: HTTP 503"), while it stays failed.
    public var error: String?

    public init(alerts: [WeatherAlert] = [], stale: Bool = false, error: String? = nil) {
        self.alerts = alerts
        self.stale = stale
        self.error = error
    }

    /// The ids in `self` that `before` did not have, and those of `before` that are gone.
    public func difference(from before: PlaceAlerts?) -> (began: [String], ended: [String]) {
        let old = Set(before?.alerts.map(\.id) ?? [])
        let new = Set(alerts.map(\.id))
        return (alerts.map(\.id).filter { !old.contains($0) }, (before?.alerts.map(\.id) ?? []).filter { !new.contains($0) })
    }
}
