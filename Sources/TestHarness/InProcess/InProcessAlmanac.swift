import Logging
public import AlmanacBus
public import AlmanacWire
public import AlmanacCore
public import AlmanacDemo
import DBus
import Locking

/// Almanac's bus objects served from the test's own process: an `AlmanacServer` over the
/// documents (the podcasts on the store the test gives) and offline services, exported on a
/// private bus under the daemon's name, for clients on other connections to drive. What
/// Hummingbird's `.router` testing is to a live server: the same calls, no binary, and the
/// documents at hand to look into.
///
///     try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
///         let client = try await almanac.connect()
///         _ = try await client.submit(.weather, ["units": .string("imperial")])
///         #expect(almanac.weather.document.snapshot.state.units == .imperial)
///     }
public final class InProcessAlmanac: Sendable {
    public let bus: PrivateBus
    public let server: AlmanacServer
    /// The weather document, over `weatherArchive`.
    public let weather: WeatherDocument
    public let weatherArchive: MemoryWeatherArchive
    /// The podcasts document, over the test's `podcastStore`.
    public let podcasts: PodcastsDocument
    private let clients = Locked<[AlmanacClient]>([])

    /// Builds the documents with `weatherService` and a refresh loop over `feeds` (the demo
    /// ones unless given) as their services, exports them on a new private bus and takes the
    /// daemon's name, as `almanacd` does. `podcastStore` is the podcasts' library: the real
    /// store (in memory or in a file), which the harness does not link, so the test names it.
    /// `weatherStore` replaces the weather's in-memory archive (`weatherArchive` is then unused).
    /// `downloads`, when given, makes the download manager over the podcasts document, and the
    /// server exports its jobs (without one, `Download` is refused as unsupported).
    public init(weatherService: any WeatherService = DemoWeatherService(),
                feeds: any FeedFetching = DemoFeedFetcher(),
                weatherStore: (any WeatherArchive)? = nil, podcastStore: any PodcastArchive,
                downloads: ((PodcastsDocument) throws -> DownloadManager)? = nil) async throws {
        bus = try PrivateBus()
        weatherArchive = MemoryWeatherArchive()
        weather = WeatherDocument(archive: weatherStore ?? weatherArchive, logger: .discarding)
        podcasts = try PodcastsDocument(archive: podcastStore, logger: .discarding)
        weatherService.dataSource = weather
        weatherService.delegate = weather
        let podcastService = PodcastService(fetcher: feeds)
        podcastService.dataSource = podcasts
        podcastService.delegate = podcasts
        let connection = try await Connection.connect(to: bus.address)
        let podcasts = self.podcasts
        let exported = try downloads.map { DownloadsExport(manager: try $0(podcasts), connection: connection, logger: .discarding) }
        server = makeInProcessServer(
            connection: connection,
            weather: WeatherAdapter(weather: weather, service: weatherService),
            podcasts: PodcastsAdapter(podcasts: podcasts, service: podcastService, inspector: OfflineFeedInspector(), opml: OfflineFeedInspector(),
                                      downloads: exported)
        )
        try await server.export()
        guard try await connection.requestName(BusContract.serviceName, flags: .doNotQueue) == .primaryOwner else {
            throw HarnessError(message: "the in-process server could not take \(BusContract.serviceName)")
        }
    }

    /// A client on a connection of its own (closed by `stop()`, or by the test to leave the bus).
    public func connect() async throws -> AlmanacClient {
        let client = try await AlmanacClient.connect(address: bus.address)
        clients.withLock { $0.append(client) }
        return client
    }

    /// Closes the clients, takes the objects off the bus and stops the bus.
    public func stop() async {
        for client in clients.withLock({ $0 }) { await client.connection.close() }
        server.unexport()
        await server.connection.close()
        bus.stop()
    }
}

/// Runs `body` with a fresh in-process server whose podcasts are kept in `podcastStore`, and
/// stops it afterwards, whether `body` threw or not.
public func withInProcessAlmanac<Result>(podcastStore: any PodcastArchive, _ body: (InProcessAlmanac) async throws -> Result) async throws -> Result {
    let almanac = try await InProcessAlmanac(podcastStore: podcastStore)
    do {
        let result = try await body(almanac)
        await almanac.stop()
        return result
    } catch {
        await almanac.stop()
        throw error
    }
}

/// The one place the harness builds an `AlmanacServer`: a test version and provider, and
/// nothing logged.
func makeInProcessServer(connection: Connection, weather: WeatherAdapter, podcasts: PodcastsAdapter) -> AlmanacServer {
    AlmanacServer(connection: connection, weather: weather, podcasts: podcasts, version: "0.0.0-test", provider: "in-process",
                  logger: .discarding)
}
