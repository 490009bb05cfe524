public import AlmanacModels
public import FoundationEssentials

/// One place as `almanac weather` and a status bar show it: now, today, and every
/// `step`-th hour ahead, made once from the place's reading.
public struct PlaceSummaryViewData: Sendable, Hashable, Encodable {
    public let now: WeatherNowViewData
    public let today: DayViewData?
    public let hours: [HourViewData]
    /// The official alerts in force, the worst first.
    public let alerts: [AlertViewData]
    /// While the place's alerts cannot be fetched, since when and why (`AlertViewData.staleNote`).
    public let alertsNote: String?

    /// - Parameters:
    ///   - error: why the place's last fetch failed, while `reading` is its last good one.
    ///   - clockOffset: the user's offset from UTC, in seconds, at a date (for the fetch time).
    ///   - count, step: how many hours, and every how many hours from the current one.
    public init(reading: WeatherReading, units: ShownUnits, now: Date, error: String?,
                clockOffset: (Date) -> Int, hours count: Int = 6, every step: Int = 2, alerts: [AlertViewData] = [],
                alertsNote: String? = nil) {
        self.alerts = alerts
        self.alertsNote = alertsNote
        self.now = WeatherNowViewData(reading: reading, units: units, now: now, error: error,
                                      clockOffset: clockOffset(reading.fetchedAt))
        today = reading.upcomingDays(now: now).first.map { DayViewData(day: $0, units: units, utcOffset: reading.utcOffset(onDay: $0.day), latitude: reading.latitude, longitude: reading.longitude,
                                                                 offsets: reading.utcOffset(at:)) }
        let ahead = reading.upcomingHours(now: now)
        hours = stride(from: 0, to: ahead.count, by: max(step, 1)).prefix(max(count, 0)).map {
            HourViewData(hour: ahead[$0], units: units, utcOffset: reading.utcOffset(at: ahead[$0].time))
        }
    }

    /// The place as a waybar module shows it (`template` on the bar, details in the tooltip).
    public func waybar(template: Template?) -> WaybarViewData {
        WaybarViewData(now: now, hours: hours, template: template, alerts: alerts)
    }
}
