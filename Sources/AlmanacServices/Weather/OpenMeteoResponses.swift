import AlmanacCore
import AlmanacModels

/// The parts of Open-Meteo's JSON that Almanac reads. Forecast series are arrays of optional
/// values: Open-Meteo sends `null` where a model has no value.
enum OpenMeteo {
    struct GeocodingResponse: Decodable {
        let results: [Place]?
    }

    struct Place: Decodable {
        let id: Int?
        let name: String
        let latitude: Double
        let longitude: Double
        let country: String?
        let country_code: String?
        let admin1: String?
        let admin2: String?
        let population: Int?
        let timezone: String?

        private enum CodingKeys: String, CodingKey {
            case id, name, latitude, longitude, country, country_code, admin1, admin2, population, timezone
        }

        /// The geocoder's text is the outside's: its names are read without control
        /// characters (an `ESC ]0;` in a place's name would be a command to the terminal that
        /// prints it), as feed text is. See docs/security.md.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func text(_ key: CodingKeys) throws -> String? {
                try container.decodeIfPresent(String.self, forKey: key)?.strippingControlCharacters()
            }
            id = try container.decodeIfPresent(Int.self, forKey: .id)
            name = try container.decode(String.self, forKey: .name).strippingControlCharacters()
            latitude = try container.decode(Double.self, forKey: .latitude)
            longitude = try container.decode(Double.self, forKey: .longitude)
            country = try text(.country)
            country_code = try text(.country_code)
            admin1 = try text(.admin1)
            admin2 = try text(.admin2)
            population = try container.decodeIfPresent(Int.self, forKey: .population)
            timezone = try text(.timezone)
        }
    }

    struct ForecastResponse: Decodable {
        let utc_offset_seconds: Int?
        /// The place's time zone ("Europe/Berlin"; `timezone=auto`).
        let timezone: String?
        let current: Current?
        let hourly: Hourly?
        let daily: Daily?
        let minutely_15: Minutely15?
    }

    /// Fifteen-minute steps; each value is the sum of the fifteen minutes before its time.
    struct Minutely15: Decodable {
        let time: [String]
        let precipitation: [Double?]?
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
        let uv_index: Double?
        let pressure_msl: Double?
        let visibility: Double?
        let cloud_cover: Double?
        let wind_gusts_10m: Double?
        let dew_point_2m: Double?
    }

    struct Hourly: Decodable {
        let time: [String]
        let temperature_2m: [Double?]?
        let precipitation_probability: [Double?]?
        let precipitation: [Double?]?
        let weather_code: [Int?]?
        let wind_speed_10m: [Double?]?
        let is_day: [Int?]?
        let uv_index: [Double?]?
        let pressure_msl: [Double?]?
        let visibility: [Double?]?
        let cloud_cover: [Double?]?
        let wind_gusts_10m: [Double?]?
        let dew_point_2m: [Double?]?
    }

    struct Daily: Decodable {
        let time: [String]
        let weather_code: [Int?]?
        let temperature_2m_max: [Double?]?
        let temperature_2m_min: [Double?]?
        let precipitation_sum: [Double?]?
        let precipitation_probability_max: [Double?]?
        let wind_speed_10m_max: [Double?]?
        let sunrise: [String?]?
        let sunset: [String?]?
        let uv_index_max: [Double?]?
        let sunshine_duration: [Double?]?
        let precipitation_hours: [Double?]?
    }

    struct AirQualityResponse: Decodable {
        let utc_offset_seconds: Int?
        let current: AirQualityCurrent?
    }

    struct AirQualityCurrent: Decodable {
        let time: String
        let european_aqi: Double?
        let us_aqi: Double?
        let pm2_5: Double?
        let pm10: Double?
        let ozone: Double?
        let alder_pollen: Double?
        let birch_pollen: Double?
        let grass_pollen: Double?
        let mugwort_pollen: Double?
        let olive_pollen: Double?
        let ragweed_pollen: Double?
    }
}

extension Optional {
    /// Element `index` of an optional series of optionals, `nil` when either is missing or it is too short.
    func at<Element>(_ index: Int) -> Element? where Wrapped == [Element?] {
        guard let series = self, series.indices.contains(index) else { return nil }
        return series[index]
    }
}
