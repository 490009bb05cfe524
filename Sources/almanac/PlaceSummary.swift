import AlmanacViews

/// One place in `almanac weather --json`: now, today, and the hours ahead.
struct PlaceSummary: Encodable, Sendable {
    let now: WeatherNowViewData
    let today: DayViewData?
    let hours: [HourViewData]
}
