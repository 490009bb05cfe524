public import AlmanacCore
public import AlmanacModels
public import Locking

/// What our services tell their delegate, recorded for tests to read (a fake of our own
/// protocols): weather readings and failures, podcasts fetched, found unchanged, failed.
public final class RecordingDelegate: WeatherServiceDelegate, PodcastServiceDelegate, Sendable {
    /// Every reading, in the order they came.
    public let readings = Locked<[WeatherReading]>([])
    /// Why each place could not be fetched, by location (the last failure).
    public let weatherFailures = Locked<[String: String]>([:])
    /// Each podcast fetched, with the episodes its feed gave, by podcast id (the last fetch).
    public let fetched = Locked<[String: (podcast: Podcast, episodes: [Episode])]>([:])
    /// The podcasts whose feed had not changed, in order.
    public let unchanged = Locked<[String]>([])
    /// Why each podcast could not be fetched, by podcast id (the last failure).
    public let podcastFailures = Locked<[String: String]>([:])

    public init() {}

    public func weatherService(_ service: any WeatherService, didFetch reading: WeatherReading) async {
        readings.withLock { $0.append(reading) }
    }

    public func weatherService(_ service: any WeatherService, didFailToFetch location: String, error: any Error) async {
        weatherFailures.withLock { $0[location] = "\(error)" }
    }

    public func podcastService(_ service: PodcastService, didRead fetch: FeedFetch) {
        switch fetch {
        case .parsed(let podcast, let episodes, _, _, _, _): fetched.withLock { $0[podcast.id] = (podcast, episodes) }
        case .notModified(let id, _): unchanged.withLock { $0.append(id) }
        case .failed(let id, let error): podcastFailures.withLock { $0[id] = "\(error)" }
        }
    }
}
