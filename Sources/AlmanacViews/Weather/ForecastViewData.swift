public import AlmanacModels
public import FoundationEssentials

/// `almanac forecast`: a place's days ahead (or hours, for `--hourly`) and how old they are.
public struct ForecastViewData: Sendable, Hashable {
    public let location: String
    /// The place's name as its provider gives it ("Berlin, Germany").
    public let place: String
    /// "updated 3 minutes ago".
    public let updated: String
    /// Today and the days after it, at most as many as asked for.
    public let days: [DayViewData]
    /// The current hour and those after it.
    public let hours: [HourViewData]
    /// The same hours as a picture (`--graph`).
    public let graph: ForecastGraphViewData

    /// - Parameter hourCount: how many hours from the current one (`nil`: all the reading has).
    public init(reading: WeatherReading, units: ShownUnits, days count: Int, hours hourCount: Int? = nil, now: Date) {
        location = reading.location
        place = reading.placeName
        updated = "updated \(relativeTime(reading.fetchedAt, now: now))"
        days = reading.upcomingDays(now: now).prefix(max(count, 0)).map { DayViewData(day: $0, units: units, utcOffset: reading.utcOffset(onDay: $0.day), latitude: reading.latitude, longitude: reading.longitude,
                                                                 offsets: reading.utcOffset(at:)) }
        let ahead = reading.upcomingHours(now: now).prefix(max(hourCount ?? Int.max, 0))
        hours = ahead.map { HourViewData(hour: $0, units: units, utcOffset: reading.utcOffset(at: $0.time)) }
        graph = ForecastGraphViewData(hours: Array(ahead), units: units, utcOffset: reading.utcOffset)
    }

    /// "7 days" / "next 24 hours": what the table under the title holds.
    public func extent(hourly: Bool) -> String {
        hourly ? "next \(hours.count) hours" : "\(days.count) day\(days.count == 1 ? "" : "s")"
    }
}
