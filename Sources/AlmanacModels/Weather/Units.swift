/// How weather is shown: the model keeps SI-style units (°C, km/h, mm); views convert.
public enum Units: String, Sendable, Hashable, Codable, CaseIterable {
    case metric, imperial
}
