public import FoundationEssentials

/// The official alerts in force at one place, as last fetched. When a fetch fails the last
/// good alerts stay, `stale`, with the failure in `error`.
public struct PlaceAlerts: Sendable, Hashable, Codable {
    public var alerts: [WeatherAlert]
    /// The last fetch failed: these are the last good ones.
    public var stale: Bool
    /// Why the last fetch failed, naming the source ("MET Norway alerts: HTTP 503"), while it stays failed.
    public var error: String?
    /// When the source last answered (what `alerts` are as of); `nil` when not known.
    public var fetchedAt: Date?

    public init(alerts: [WeatherAlert] = [], stale: Bool = false, error: String? = nil, fetchedAt: Date? = nil) {
        self.alerts = alerts
        self.stale = stale
        self.error = error
        self.fetchedAt = fetchedAt
    }

    /// The ids in `self` that `before` did not have, and those of `before` that are gone.
    public func difference(from before: PlaceAlerts?) -> (began: [String], ended: [String]) {
        let old = Set(before?.alerts.map(\.id) ?? [])
        let new = Set(alerts.map(\.id))
        return (alerts.map(\.id).filter { !old.contains($0) }, (before?.alerts.map(\.id) ?? []).filter { !new.contains($0) })
    }

    /// Without the alerts whose `expires` is before `now` (kept ones that ended meanwhile).
    public func inForce(at now: Date) -> PlaceAlerts {
        var kept = self
        kept.alerts = alerts.filter { ($0.expires ?? .distantFuture) > now }
        return kept
    }
}
