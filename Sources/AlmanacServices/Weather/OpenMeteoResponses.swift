/// The parts of Open-Meteo's JSON that Almanac reads.
enum OpenMeteo {
    struct GeocodingResponse: Decodable {
        let results: [Place]?
    }

    struct Place: Decodable {
        let name: String
        let latitude: Double
        let longitude: Double
        let country: String?
        let admin1: String?
    }

    struct ForecastResponse: Decodable {
        let utc_offset_seconds: Int?
        let current: Current?
    }

    struct Current: Decodable {
        let time: String
        let temperature_2m: Double
        let relative_humidity_2m: Double?
        let apparent_temperature: Double?
        let is_day: Int?
        let precipitation: Double?
        let weather_code: Int?
        let wind_speed_10m: Double?
        let wind_direction_10m: Double?
    }
}
