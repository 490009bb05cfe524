@testable import AlmanacWire
import AlmanacModels
import DBus
import Foundation

/// The weather document's values: its state (whole, empty, and one place's slice), every
/// change kind, the view updates the bus layer makes, and `Weather1`'s replies.
extension GoldenCases {
    typealias WeatherUpdate = ViewUpdate<WeatherState, WeatherChange>

    static let hour = HourlyForecast(time: second, temperature: 9, precipitationProbability: 40, precipitation: 0.1, weatherCode: 3,
                                     windSpeed: 12, isDay: false, details: WeatherDetails(uvIndex: 0, dewPoint: 4.5))
    static let bareHour = HourlyForecast(time: second + 3_600, temperature: -2.5, precipitationProbability: 0, precipitation: 0, weatherCode: 0,
                                         windSpeed: 0, isDay: true)
    static let day = DailyForecast(day: "2027-01-15", weatherCode: 61, temperatureMax: 11, temperatureMin: 3, precipitation: 4,
                                   precipitationProbability: 80, windSpeedMax: 30, sunrise: second, sunset: second + 30_000,
                                   uvIndexMax: 1.5, sunshineDuration: 7_200, precipitationHours: 3)
    static let bareDay = DailyForecast(day: "2027-01-16", weatherCode: 95, temperatureMax: 1, temperatureMin: -30.25, precipitation: 0,
                                       precipitationProbability: 0, windSpeedMax: 0, sunrise: nil, sunset: nil)

    /// A reading with every optional part.
    static let berlin = WeatherReading(
        location: "Berlin", placeName: "Berlin, Deutschland", latitude: 52.52, longitude: 13.41, temperature: 9.5,
        apparentTemperature: 7.25, humidity: 81, windSpeed: 14.4, windDirection: 250, precipitation: 0.2,
        weatherCode: 61, isDay: false, observedAt: second, fetchedAt: second + 30, utcOffset: 3_600,
        hourly: [hour, bareHour], daily: [day, bareDay],
        details: WeatherDetails(uvIndex: 0.5, pressure: 1_013, visibility: 10_000, cloudCover: 90, windGusts: 40, dewPoint: 6),
        airQuality: AirQuality(europeanAQI: 21, usAQI: 30, pm2_5: 4.5, pm10: 9, ozone: 60, observedAt: second, fetchedAt: second + 60,
                               pollen: Pollen(alder: 3, birch: 85.5, grass: 25, mugwort: 0, olive: nil, ragweed: 0)),
        provider: "open-meteo",
        nowcast: Nowcast(steps: [NowcastStep(start: second, precipitation: 0), NowcastStep(start: second + 900, precipitation: 1.5)]),
        timeZone: "Europe/Berlin"
    )

    /// A reading with none of them: no hours, days, details, air, provider, nowcast or zone.
    static let tokyo = WeatherReading(
        location: "東京", placeName: "東京都", latitude: 35.69, longitude: 139.69, temperature: -0.5, apparentTemperature: -4,
        humidity: 0, windSpeed: 0, windDirection: 0, precipitation: 0, weatherCode: 0, isDay: true, observedAt: second - 600
    )

    static let alert = WeatherAlert(id: "urn:oid:2.49.0.1.578.0.1", event: "Sturmböen ⚠", severity: .severe, certainty: "Likely", urgency: "Expected",
                                    onset: second, expires: second + 3_600, headline: "Wind, orange level", description: "Gusts\nup to 30 m/s",
                                    instruction: "Secure loose objects", area: "Oslo", source: "metalerts", url: "https://www.met.no")
    static let bareAlert = WeatherAlert(id: "b", event: "Gale", severity: .unknown, headline: "", source: "nws")
    static let osloAlerts = PlaceAlerts(alerts: [alert, bareAlert], stale: false, error: nil, fetchedAt: second)
    static let staleAlerts = PlaceAlerts(alerts: [], stale: true, error: "NWS alerts: HTTP 503", fetchedAt: nil)

    static let weatherState: WeatherState = {
        var state = WeatherState(units: .imperial, savedLocations: ["Berlin", "東京", "Zürich"],
                                 readings: ["Berlin": berlin, "東京": tokyo], failures: ["Zürich": "HTTP 503: überlastet", "Atlantis": "no such place"])
        state.provider = .metNorway
        state.rainNotify = .thirtyMinutes
        state.windUnit = .beaufort
        state.precipitationUnit = .inches
        state.weatherAlerts = .all
        state.alerts = ["Oslo": osloAlerts, "Ørsta": staleAlerts]
        return state
    }()

    static let weatherChanges: [(String, WeatherChange)] = [
        ("reading", .reading(berlin)), ("reading-bare", .reading(tokyo)), ("failed", .failed(location: "Zürich", message: "HTTP 503: überlastet")),
        ("units", .units(.imperial)), ("provider", .provider(.metNorway)), ("savedLocations", .savedLocations(["Berlin", "東京"])),
        ("savedLocations-empty", .savedLocations([])), ("forgotten", .forgotten(["Oslo"])), ("rainNotify", .rainNotify(.sixtyMinutes)),
        ("windUnit", .windUnit(.knots)), ("precipitationUnit", .precipitationUnit(.millimetres)), ("weatherAlerts", .weatherAlerts(.off)),
        ("alerts", .alerts(location: "Oslo", osloAlerts, began: ["urn:oid:2.49.0.1.578.0.1", "b"], ended: ["urn:0"])),
        ("alerts-stale", .alerts(location: "Ørsta", staleAlerts, began: [], ended: [])),
    ]

    static let places = [
        PlaceMatch(id: 2_867_714, name: "München", region: "Bayern", country: "Deutschland", countryCode: "DE", latitude: 48.14, longitude: 11.58,
                   population: 1_260_391, timezone: "Europe/Berlin"),
        PlaceMatch(id: nil, name: "Nowhere", region: nil, country: nil, countryCode: nil, latitude: 0, longitude: -0.5),
    ]

    static var weather: [GoldenCase] {
        let state = weatherState
        let snapshot = (try? WeatherCodec.snapshot(state, for: WeatherViewOptions(location: "Berlin"))) ?? [:]
        let slice: WeatherState = {
            var slice = WeatherState(units: .imperial, savedLocations: state.savedLocations, readings: ["Berlin": berlin])
            (slice.provider, slice.rainNotify, slice.windUnit, slice.precipitationUnit, slice.weatherAlerts) = (.metNorway, .thirtyMinutes, .beaufort, .inches, .all)
            return slice
        }()
        return [
            GoldenCase("state", fields: fields(state)) { try WireCoding.decode(WeatherState.self, fromFields: $0) == state },
            GoldenCase("state-empty", fields: fields(WeatherState())) { try WireCoding.decode(WeatherState.self, fromFields: $0) == WeatherState() },
            GoldenCase("state-Berlin", fields: snapshot) { try WireCoding.decode(WeatherState.self, fromFields: $0) == slice },
            GoldenCase("updated-resync", fields: resync(snapshot)) {
                try WireCoding.decode(WeatherUpdate.self, fromFields: $0) == .resynchronised(slice)
            },
            GoldenCase("updated-tooLarge", fields: tooLarge(fields(WeatherChange.reading(berlin)))) {
                try WireCoding.decode(WeatherUpdate.self, fromFields: $0) == .tooLarge(was: "reading")
            },
            GoldenCase("current", value: value(CurrentConditions(berlin, failure: nil, now: second + 60))) { message in
                try WireCoding.decode(CurrentConditions.self, fromFields: try message.arguments([String: Value].self)).reading == berlin
            },
            GoldenCase("current-failing", value: value(CurrentConditions(tokyo, failure: "HTTP 500: Fehler", now: second + 7_200))) { message in
                let current = try WireCoding.decode(CurrentConditions.self, fromFields: try message.arguments([String: Value].self))
                return current.reading == tokyo && current.stale && current.error == "HTTP 500: Fehler"
            },
            GoldenCase("forecast", items: list([day, bareDay])) {
                try WireCoding.decode([DailyForecast].self, from: $0) == [day, bareDay]
            },
            GoldenCase("forecast-none", items: list([DailyForecast]())) { try WireCoding.decode([DailyForecast].self, from: $0).isEmpty },
            GoldenCase("hourly", items: list([hour, bareHour])) {
                try WireCoding.decode([HourlyForecast].self, from: $0) == [hour, bareHour]
            },
            GoldenCase("alert", value: value(alert)) { try WireCoding.decode(WeatherAlert.self, fromFields: try $0.arguments([String: Value].self)) == alert },
            GoldenCase("placeAlerts", value: value(osloAlerts)) { try WireCoding.decode(PlaceAlerts.self, fromFields: try $0.arguments([String: Value].self)) == osloAlerts },
            GoldenCase("places", items: list(places)) {
                try WireCoding.decode([PlaceMatch].self, from: $0) == places
            },
            GoldenCase("viewOptions", fields: fields(WeatherViewOptions(location: "Zürich"))) {
                try WeatherCodec.viewOptions($0) == WeatherViewOptions(location: "Zürich")
            },
            GoldenCase("viewOptions-all", fields: fields(WeatherViewOptions(location: nil))) { try WeatherCodec.viewOptions($0) == WeatherViewOptions(location: nil) },
        ] + weatherChanges.map { name, change in
            GoldenCase("change-\(name)", fields: fields(change)) {
                try WireCoding.decode(WeatherChange.self, fromFields: $0) == change && WireCoding.decode(WeatherUpdate.self, fromFields: $0) == .changed(change)
            }
        }
    }
}
