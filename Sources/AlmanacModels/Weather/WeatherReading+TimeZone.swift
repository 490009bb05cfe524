public import FoundationEssentials

extension WeatherReading {
    /// The place's offset from UTC at `date`: from its time zone when the provider named one
    /// this system knows (daylight saving included), else the offset it was fetched at.
    public func utcOffset(at date: Date) -> Int {
        timeZone.flatMap { PlaceTimeZone.named($0) }?.utcOffset(at: date) ?? utcOffset
    }

    /// The place's offset from UTC on `day` ("2026-03-29"), at its noon: the clock its
    /// sunrise, sunset, moonrise and moonset that day are shown on. The fetch's offset when
    /// `day` is not a date.
    public func utcOffset(onDay day: String) -> Int {
        guard let days = CalendarDay.daysSinceEpoch(of: day) else { return utcOffset }
        return utcOffset(at: Date(timeIntervalSince1970: Double(days) * 86_400 + 43_200 - Double(utcOffset)))
    }
}
