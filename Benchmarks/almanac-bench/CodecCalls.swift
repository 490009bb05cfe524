import AlmanacModels
import AlmanacWire
import DBus

/// The codec calls `CodecBenchmark` measures, as the server and the CLI make them.
enum CodecCalls {
    static func encode(_ state: WeatherState) -> [String: Value] { WeatherCodec.encode(state) }
    static func decodeWeather(_ fields: [String: Value]) throws -> WeatherState { WeatherCodec.decodeState(fields) }
    static func encode(_ state: PodcastsState) -> [String: Value] { PodcastsCodec.encode(state) }
    static func decodePodcasts(_ fields: [String: Value]) throws -> PodcastsState { PodcastsCodec.decodeState(fields) }
    static func encode(_ change: WeatherChange) -> [String: Value] { WeatherCodec.encode(change) }
    static func encode(_ change: PodcastsChange) -> [String: Value] { PodcastsCodec.encode(change) }
    static func decodeChange(_ fields: [String: Value]) throws -> WeatherChange? { WeatherCodec.decodeChange(fields) }
    static func decodeChange(_ fields: [String: Value]) throws -> PodcastsChange? { PodcastsCodec.decodeChange(fields) }
}
