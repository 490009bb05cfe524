public import FoundationEssentials

extension WeatherReading {
    /// How long a kept reading counts as fresh (Open-Meteo's own cadence): the daemon does
    /// not fetch it again sooner, and clients use the same.
    public static let freshFor: Double = 15 * 60

    /// A reading older than this (seconds: four missed 15-minute polls) is stale even when
    /// its place fetches fine.
    public static let staleAfter: Double = 3_600

    /// Whether the reading may no longer be true at `now`: its place's last fetch failed, or
    /// it is older than `staleAfter`. One rule for the bus (`Current`'s `stale`) and the views.
    public func isStale(now: Date, failing: Bool) -> Bool {
        failing || now.timeIntervalSince(fetchedAt) > Self.staleAfter
    }

    /// The daily forecasts from the place's today on (a reading kept from yesterday no
    /// longer offers yesterday as "today").
    public func upcomingDays(now: Date) -> [DailyForecast] {
        let today = CalendarDay.at(now, utcOffset: utcOffset(at: now))
        return daily.filter { $0.day >= today }
    }

    /// The hourly forecasts from the current hour on.
    public func upcomingHours(now: Date) -> [HourlyForecast] {
        hourly.filter { $0.time.timeIntervalSince(now) > -3_600 }
    }
}
