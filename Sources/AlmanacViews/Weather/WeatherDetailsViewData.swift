public import AlmanacModels

/// The numbers people check beside temperature and rain — UV, pressure, visibility, clouds,
/// gusts, dew point — and the air, as a view shows them in the user's units: each text
/// empty and each value `nil` when the provider does not give it.
public struct WeatherDetailsViewData: Sendable, Hashable {
    /// "UV 2 (low)".
    public let uv: String
    /// "1021 hPa" or "30.16 inHg".
    public let pressure: String
    /// "24 km" or "15 mi".
    public let visibility: String
    /// "88%".
    public let clouds: String
    /// "32 km/h" or "20 mph".
    public let gusts: String
    /// "-1.6°C" or "29.1°F".
    public let dewPoint: String
    /// "fair (European AQI 21)".
    public let air: String
    /// "birch high, grass moderate": each plant whose pollen is in the air (low or more), the
    /// most first (`PollenLevel`); empty when there is none or the provider gives no counts.
    public let pollen: String

    // Machine values, in the user's units, for `--json`.
    public let units: Units
    public let uvIndex: Double?
    public let pressureValue: Double?
    public let visibilityValue: Double?
    public let cloudCover: Double?
    public let gustsValue: Double?
    public let dewPointValue: Double?
    public let airQuality: AirQuality?

    public init(details: WeatherDetails?, airQuality: AirQuality?, units: ShownUnits) {
        let details = details ?? WeatherDetails()
        self.units = units.system
        uvIndex = details.uvIndex
        pressureValue = details.pressure.map { units.system == .metric ? $0 : $0 / 33.8639 }
        visibilityValue = details.visibility.map { units.system == .metric ? $0 / 1000 : $0 / 1609.344 }
        cloudCover = details.cloudCover
        gustsValue = details.windGusts.map { WeatherNowViewData.speedValue($0, units) }
        dewPointValue = details.dewPoint.map { WeatherNowViewData.temperatureValue($0, units) }
        self.airQuality = airQuality
        uv = details.uvIndex.map { "UV \(fixedPoint($0, decimals: 0)) (\(Self.uvLevel($0)))" } ?? ""
        pressure = pressureValue.map { units.system == .metric ? fixedPoint($0, decimals: 0) + " hPa" : fixedPoint($0, decimals: 2) + " inHg" } ?? ""
        visibility = visibilityValue.map { fixedPoint($0, decimals: $0 < 10 ? 1 : 0) + (units.system == .metric ? " km" : " mi") } ?? ""
        clouds = details.cloudCover.map { fixedPoint($0, decimals: 0) + "%" } ?? ""
        gusts = details.windGusts.map { WeatherNowViewData.speed($0, units) } ?? ""
        dewPoint = details.dewPoint.map { WeatherNowViewData.temperature($0, units) } ?? ""
        air = airQuality.flatMap { air in
            if let index = air.europeanAQI { return "\(Self.europeanLevel(index)) (European AQI \(fixedPoint(index, decimals: 0)))" }
            if let index = air.usAQI { return "\(Self.usLevel(index)) (US AQI \(fixedPoint(index, decimals: 0)))" }
            return nil
        } ?? ""
        pollen = Self.pollenText(airQuality?.pollen)
    }

    /// "birch high, grass moderate" for `counts`.
    static func pollenText(_ pollen: Pollen?) -> String {
        let levels = (pollen?.counts ?? []).compactMap { plant, grains -> (plant: String, level: PollenLevel, grains: Double)? in
            guard let grains, let level = PollenLevel(plant: plant, grains: grains), level > .none else { return nil }
            return (plant, level, grains)
        }
        return levels.sorted { ($0.level, $0.grains) > ($1.level, $1.grains) }.map { "\($0.plant) \($0.level.name)" }.joined(separator: ", ")
    }

    /// "  Pollen: birch high, grass moderate" (plants that do not fit go, the least first);
    /// `nil` when there is no pollen to speak of.
    public func pollenLine(width: Int, indent: Int = 2) -> StyledLine? {
        guard !pollen.isEmpty else { return nil }
        var fields: [LineField] = [.kept(StyledLine(String(repeating: " ", count: indent) + "Pollen:"))]
        for (index, part) in pollen.split(separator: ", ").map(String.init).enumerated() {
            fields.append(.optional(StyledLine(part), priority: 50 - index, separator: index == 0 ? " " : ", "))
        }
        return fitLine(fields, width: width)
    }

    /// Whether there is anything to show.
    public var isEmpty: Bool { [uv, pressure, visibility, clouds, gusts, dewPoint, air].allSatisfy(\.isEmpty) }

    /// The WHO's words for a UV index.
    static func uvLevel(_ index: Double) -> String {
        switch index {
        case ..<3: "low"
        case ..<6: "moderate"
        case ..<8: "high"
        case ..<11: "very high"
        default: "extreme"
        }
    }

    /// The European Environment Agency's words for its index.
    static func europeanLevel(_ index: Double) -> String {
        switch index {
        case ..<20: "good"
        case ..<40: "fair"
        case ..<60: "moderate"
        case ..<80: "poor"
        case ..<100: "very poor"
        default: "extremely poor"
        }
    }

    /// The EPA's words for the US index.
    static func usLevel(_ index: Double) -> String {
        switch index {
        case ...50: "good"
        case ...100: "moderate"
        case ...150: "unhealthy for sensitive groups"
        case ...200: "unhealthy"
        case ...300: "very unhealthy"
        default: "hazardous"
        }
    }

    /// The `--json` keys (docs/cli.md): values in `units`, `…Text` as shown, `null` when unknown.
    public var jsonFields: [String: JSONValue] {
        [
            "uvIndex": .number(uvIndex, decimals: 2), "uvIndexText": .text(uv),
            "pressure": .number(pressureValue, decimals: 2), "pressureText": .text(pressure),
            "visibility": .number(visibilityValue, decimals: 2), "visibilityText": .text(visibility),
            "cloudCover": .number(cloudCover, decimals: 0), "cloudCoverText": .text(clouds),
            "windGusts": .number(gustsValue, decimals: 2), "windGustsText": .text(gusts),
            "dewPoint": .number(dewPointValue, decimals: 2), "dewPointText": .text(dewPoint),
            "airQuality": airQuality.map { air in
                .object([
                    "europeanAQI": .number(air.europeanAQI, decimals: 0), "usAQI": .number(air.usAQI, decimals: 0),
                    "pm2_5": .number(air.pm2_5, decimals: 1), "pm10": .number(air.pm10, decimals: 1), "ozone": .number(air.ozone, decimals: 1),
                    "observed": .unix(air.observedAt), "text": .text(self.air),
                    "pollen": air.pollen.map { pollen in
                        .object(Dictionary(uniqueKeysWithValues: pollen.counts.map { ($0.plant, JSONValue.number($0.grains, decimals: 1)) }))
                    } ?? .null,
                    "pollenText": .text(pollen),
                ])
            } ?? .null,
        ]
    }

    /// The unit of each measure in `units`, for `--json`'s `unitNames`.
    public static func unitNames(_ shown: ShownUnits) -> JSONValue {
        let units = shown.system
        return .object([
            "temperature": .string(units == .metric ? "°C" : "°F"), "speed": .string(shown.wind.symbol),
            "precipitation": .string(shown.precipitation.rawValue), "pressure": .string(units == .metric ? "hPa" : "inHg"),
            "visibility": .string(units == .metric ? "km" : "mi"), "humidity": .string("%"), "cloudCover": .string("%"),
            "particles": .string("µg/m³"), "uvIndex": .string("UV index"),
        ])
    }

    /// "UV 2 (low) · 1021 hPa · visibility 24 km · clouds 88% · gusts 32 km/h · dew point
    /// -1.6°C · air fair (European AQI 21)" within `width`: the air stays longest, then UV.
    public func line(width: Int, indent: Int = 2) -> StyledLine {
        var fields: [LineField] = [.kept(StyledLine(String(repeating: " ", count: indent)))]
        // In the order shown, each with how long it stays as the width shrinks.
        let parts: [(text: String, priority: Int)] = [
            (uv, 45), (pressure, 30), (visibility.isEmpty ? "" : "visibility \(visibility)", 20), (clouds.isEmpty ? "" : "clouds \(clouds)", 15),
            (gusts.isEmpty ? "" : "gusts \(gusts)", 40), (dewPoint.isEmpty ? "" : "dew point \(dewPoint)", 10), (air.isEmpty ? "" : "air \(air)", 50),
        ]
        for (index, part) in parts.filter({ !$0.text.isEmpty }).enumerated() {
            fields.append(.optional(StyledLine(part.text), priority: part.priority, separator: index == 0 ? "" : " · "))
        }
        return fitLine(fields, width: width)
    }

    /// The fields a `--format` template can use.
    public var fields: [String: String] {
        ["uv": uv, "pressure": pressure, "visibility": visibility, "clouds": clouds, "gusts": gusts, "dewPoint": dewPoint, "air": air, "pollen": pollen]
    }

    public static let fieldNames = ["uv", "pressure", "visibility", "clouds", "gusts", "dewPoint", "air", "pollen"]
}
