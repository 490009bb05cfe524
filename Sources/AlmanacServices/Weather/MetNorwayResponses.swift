/// The parts of MET Norway's Locationforecast 2.0 JSON (`complete`) that Almanac reads.
/// Every value may be missing: the series gets coarser (6-hourly) after about 60 hours.
enum MetNorway {
    struct Forecast: Decodable {
        let properties: Properties?
    }

    struct Properties: Decodable {
        let timeseries: [Step]?
    }

    struct Step: Decodable {
        let time: String
        let data: StepData
    }

    struct StepData: Decodable {
        let instant: Instant?
        let next_1_hours: Period?
        let next_6_hours: Period?
        let next_12_hours: Period?
    }

    struct Instant: Decodable {
        let details: InstantDetails?
    }

    struct InstantDetails: Decodable {
        let air_pressure_at_sea_level: Double?
        let air_temperature: Double?
        let cloud_area_fraction: Double?
        let dew_point_temperature: Double?
        let relative_humidity: Double?
        let wind_from_direction: Double?
        /// m/s.
        let wind_speed: Double?
        /// m/s.
        let wind_speed_of_gust: Double?
        let ultraviolet_index_clear_sky: Double?
    }

    struct Period: Decodable {
        let summary: Summary?
        let details: PeriodDetails?
    }

    struct Summary: Decodable {
        let symbol_code: String?
    }

    struct PeriodDetails: Decodable {
        let precipitation_amount: Double?
        let probability_of_precipitation: Double?
        let air_temperature_max: Double?
        let air_temperature_min: Double?
    }
}
