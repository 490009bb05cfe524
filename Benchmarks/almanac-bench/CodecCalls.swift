import AlmanacModels
import AlmanacWire
import DBus

/// The codec calls `CodecBenchmark` measures, as the server and the CLI make them.
enum CodecCalls {
    static func encode(_ state: WeatherState) throws -> [String: Value] { try WireCoding.fields(state) }
    static func decodeWeather(_ fields: [String: Value]) throws -> WeatherState { try WireCoding.decode(WeatherState.self, fromFields: fields) }
    static func encode(_ state: PodcastsState) throws -> [String: Value] { try WireCoding.fields(state) }
    static func decodePodcasts(_ fields: [String: Value]) throws -> PodcastsState { try WireCoding.decode(PodcastsState.self, fromFields: fields) }
    static func encode(_ change: WeatherChange) throws -> [String: Value] { try WireCoding.fields(change) }
    static func encode(_ change: PodcastsChange) throws -> [String: Value] { try WireCoding.fields(change) }
    static func decodeChange(_ fields: [String: Value]) throws -> WeatherChange? { try WireCoding.decode(WeatherChange.self, fromFields: fields) }
    static func decodeChange(_ fields: [String: Value]) throws -> PodcastsChange? { try WireCoding.decode(PodcastsChange.self, fromFields: fields) }
}
