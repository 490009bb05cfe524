public import AlmanacModels
public import DBus
import FoundationEssentials

extension WeatherReading: WireShaped {
    /// A reading on the bus (docs/bus-api.md, "Weather state"), in this order: the place and
    /// the conditions, `weatherCode i`, `observedAt x` and `fetchedAt x`, `utcOffset i`, the
    /// first two days of hours (`hourlyOnTheBus`), the days, then what is known of `uvIndex`,
    /// `pressure`, `visibility`, `cloudCover`, `windGusts`, `dewPoint`, `airQuality`,
    /// `provider`, `nowcast` (its steps) and `timeZone`.
    public struct Wire: Codable, DictionaryTyped {
        var location: String
        var placeName: String
        var latitude, longitude, temperature, apparentTemperature, humidity, windSpeed, windDirection, precipitation: Double
        var weatherCode: Int32
        var isDay: Bool
        var observedAt, fetchedAt: Date
        var utcOffset: Int32
        var hourly: [HourlyForecast.Wire]
        var daily: [DailyForecast.Wire]
        @Flattened var details: WeatherDetails
        var airQuality: AirQuality?
        var provider: String?
        var nowcast: [NowcastStep]?
        var timeZone: String?
    }

    public var wire: Wire {
        Wire(location: location, placeName: placeName, latitude: latitude, longitude: longitude, temperature: temperature,
             apparentTemperature: apparentTemperature, humidity: humidity, windSpeed: windSpeed, windDirection: windDirection,
             precipitation: precipitation, weatherCode: Int32(clamping: weatherCode), isDay: isDay, observedAt: observedAt, fetchedAt: fetchedAt,
             utcOffset: Int32(clamping: utcOffset), hourly: hourly.prefix(Self.hoursOnTheBus).map(\.wire), daily: daily.map(\.wire),
             details: details ?? WeatherDetails(), airQuality: airQuality?.withoutEmptyPollen, provider: provider, nowcast: nowcast?.steps,
             timeZone: timeZone)
    }

    /// A zone name that is none (a peer's `../../etc`) is left out.
    public init(wire: Wire) throws {
        self.init(location: wire.location, placeName: wire.placeName, latitude: wire.latitude, longitude: wire.longitude,
                  temperature: wire.temperature, apparentTemperature: wire.apparentTemperature, humidity: wire.humidity,
                  windSpeed: wire.windSpeed, windDirection: wire.windDirection, precipitation: wire.precipitation,
                  weatherCode: Int(wire.weatherCode), isDay: wire.isDay, observedAt: wire.observedAt, fetchedAt: wire.fetchedAt,
                  utcOffset: Int(wire.utcOffset), hourly: wire.hourly.map(HourlyForecast.init(wire:)),
                  daily: wire.daily.map(DailyForecast.init(wire:)), details: wire.details.isEmpty ? nil : wire.details,
                  airQuality: wire.airQuality?.withoutEmptyPollen, provider: wire.provider,
                  nowcast: wire.nowcast.flatMap { $0.isEmpty ? nil : Nowcast(steps: $0) },
                  timeZone: wire.timeZone.flatMap { PlaceTimeZone.isZoneName($0) ? $0 : nil })
    }
}

extension AirQuality {
    /// The air as the bus tells it: without a `pollen` that knows no plant.
    var withoutEmptyPollen: AirQuality {
        var air = self
        if air.pollen?.isEmpty == true { air.pollen = nil }
        return air
    }
}
