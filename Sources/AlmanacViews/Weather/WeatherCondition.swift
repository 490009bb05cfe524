/// What a WMO weather interpretation code (as Open-Meteo reports it) means, in words and as
/// a symbol. One table, tested.
public struct WeatherCondition: Sendable, Hashable {
    public let text: String
    public let symbol: String

    /// The condition for `code`; unknown codes say so rather than guess.
    public init(code: Int) {
        let entry = Self.table[code] ?? ("Unknown conditions (code \(code))", "?")
        text = entry.0
        symbol = entry.1
    }

    static let table: [Int: (String, String)] = [
        0: ("Clear sky", "☀"),
        1: ("Mainly clear", "🌤"), 2: ("Partly cloudy", "⛅"), 3: ("Overcast", "☁"),
        45: ("Fog", "🌫"), 48: ("Depositing rime fog", "🌫"),
        51: ("Light drizzle", "🌦"), 53: ("Drizzle", "🌦"), 55: ("Dense drizzle", "🌧"),
        56: ("Light freezing drizzle", "🌧"), 57: ("Dense freezing drizzle", "🌧"),
        61: ("Slight rain", "🌦"), 63: ("Rain", "🌧"), 65: ("Heavy rain", "🌧"),
        66: ("Light freezing rain", "🌧"), 67: ("Heavy freezing rain", "🌧"),
        71: ("Slight snow", "🌨"), 73: ("Snow", "🌨"), 75: ("Heavy snow", "❄"), 77: ("Snow grains", "🌨"),
        80: ("Slight rain showers", "🌦"), 81: ("Rain showers", "🌧"), 82: ("Violent rain showers", "⛈"),
        85: ("Slight snow showers", "🌨"), 86: ("Heavy snow showers", "❄"),
        95: ("Thunderstorm", "⛈"), 96: ("Thunderstorm with slight hail", "⛈"), 99: ("Thunderstorm with heavy hail", "⛈"),
    ]
}
