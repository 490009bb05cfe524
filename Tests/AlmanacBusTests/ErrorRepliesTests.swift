import AlmanacBus
import AlmanacCore
import AlmanacDemo
import AlmanacModels
import AlmanacServices
import AlmanacWire
import DBus
import Logging
import TestHarness
import Testing

/// The one path from a thrown error to the reply a client sees (`ErrorReplies`, the rule
/// `AlmanacServer` sets on its connection): errors of the core's rules reach the client
/// with their own name and message, whichever way the handler answers; an error that names
/// nothing reaches it as `Failed` with nothing of its words, which go to the log.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ErrorRepliesTests {
    @Test func aCoreRefusalReachesTheClientWithItsOwnNameAndMessage() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let client = try await almanac.connect()
            // LocationNotSaved, from the weather document's rule, in the answer of a deferred reply.
            let notSaved = try await #require(throws: BusError.self) { try await client.removeLocation("Atlantis") }
            #expect(notSaved.name == ErrorName(.unknownLocation))
            #expect(notSaved.message == LocationNotSaved(location: "Atlantis", saved: []).message)
            // SubmissionError, thrown by the podcasts document's owner in its burst.
            let unknown = try await #require(throws: BusError.self) { _ = try await client.submit(.podcasts, ["episode": .string("nope"), "played": .boolean(true)]) }
            #expect(unknown.name == .invalidArgs)
            #expect(unknown.message.hasPrefix("There is no episode"), "\(unknown.message)")
            // FeedInspectionError, from the inspector of an async handler: each code its name.
            let opml = try await #require(throws: BusError.self) { _ = try await client.importOPML(file: try UnixFD.sealedMemory(containing: Array("<opml/>".utf8), name: "t")) }
            #expect(opml.name == ErrorName(.notAFeed) && opml.message == "This test reads no OPML (7 bytes).", "\(opml)")
            let unread = try await #require(throws: BusError.self) { _ = try await client.subscribe("https://example.com/feed.xml") }
            #expect(unread.name == ErrorName(.fetchFailed) && unread.message == "This test reads no feeds (https://example.com/feed.xml).", "\(unread)")
        }
    }

    /// A place search that fails with words meant for no client (a path, a statement).
    struct LeakingPlaces: PlaceSearching {
        struct Leak: Error, CustomStringConvertible {
            var description: String { "SQLite error 1: no such table - while executing `SELECT secret FROM /home/me/.local/state/almanac/state.sqlite`" }
        }

        func searchPlaces(_ name: String, count: Int) async throws -> [PlaceMatch] { throw Leak() }
    }

    @Test func anErrorThatNamesNothingIsFailedWithNothingOfItsWordsWhichAreLogged() async throws {
        let bus = try PrivateBus()
        let log = RecordingLogHandler()
        let connection = try await Connection.connect(to: bus.address)
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)
        let server = AlmanacServer(
            connection: connection,
            weather: WeatherAdapter(weather: WeatherDocument(logger: .discarding), service: DemoWeatherService(), places: LeakingPlaces()),
            podcasts: PodcastsAdapter(podcasts: podcasts, service: PodcastService(fetcher: DemoFeedFetcher()), inspector: OfflineFeedInspector(), opml: OfflineFeedInspector()),
            version: "0.0.0-test", provider: "in-process", logger: log.logger)
        try await server.export()
        #expect(try await connection.requestName(BusContract.serviceName, flags: .doNotQueue) == .primaryOwner)
        let client = try await AlmanacClient.connect(address: bus.address)
        let error = try await #require(throws: BusError.self) { _ = try await client.searchPlaces("Berlin", count: 3) }
        #expect(error.name == .failed)
        #expect(!error.message.contains("SQLite") && !error.message.contains("/home/") && error.message.contains("journalctl"), "\(error.message)")
        let logged = log.entries(at: .error)
        #expect(logged.contains { $0.message.contains("names nothing") && "\($0.metadata["error"] ?? "")".contains("SELECT secret") }, "\(logged)")
        await client.connection.close()
        server.unexport()
        await connection.close()
        bus.stop()
    }
}
