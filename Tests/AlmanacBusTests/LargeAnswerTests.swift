import AlmanacBus
import AlmanacCore
import AlmanacDemo
import AlmanacServices
import AlmanacWire
import DBus
import TestHarness
import Testing

/// Answers and changes larger than the bus takes, in process: the server's connection is
/// given a tiny message limit so an ordinary state is "too large".
@Suite(.onTestThreads, .timeLimit(.hang)) struct LargeAnswerTests {
    static let places = (1...100).map { "Place number \($0) with a name long enough to fill a message quickly" }

    @Test func aStateTooLargeForAMessageIsRefusedNamedAndComesByDescriptor() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            almanac.server.connection.maximumMessageSize = 8_192
            let client = try await almanac.connect()
            let listener = try await almanac.connect()
            let changes = try await listener.connection.signals(matching: BusContract.Document1.changed.rule(path: BusContract.documentPath(.weather)))
            let revision = try await client.submit(.weather, ["locations": .array(.string, Self.places.map { .string($0) })])

            // The change would not fit: it goes as a marker at its revision.
            var iterator = changes.makeAsyncIterator()
            let changed = try #require(await iterator.next())
            let (changedRevision, fields) = try changed.arguments(UInt64.self, [String: Value].self)
            #expect(changedRevision == revision)
            #expect(fields == ["kind": .string("tooLarge"), "was": .string("savedLocations")])

            // GetState says what to do instead; the client does it.
            let refused = try await #require(throws: BusError.self) {
                _ = try await client.connection.call(BusContract.serviceName, path: BusContract.documentPath(.weather), interface: BusContract.documentInterface,
                                                     method: BusContract.Document1.getState.name) { _ in }
            }
            #expect(refused.name == .limitsExceeded)
            #expect(refused.message.contains("GetStateDescriptor") && refused.message.contains("8192 bytes"), "\(refused.message)")
            let (stateRevision, state) = try await client.state(of: .weather)
            #expect(stateRevision == revision)
            #expect(state["savedLocations"] == .array(.string, Self.places.map { .string($0) }))
            #expect(almanac.server.connection.isConnected)
        }
    }

    /// A typed method keeps its own refusal: a page too large for a message says how many
    /// episodes were asked for (read from the call after the reply is written) and what to
    /// do instead, not only the layer's sizes.
    @Test func aPageTooLargeForAMessageIsRefusedSayingHowManyWereAskedFor() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            for podcast in DemoFeedFetcher.catalogue { try almanac.podcasts.subscribe(podcast) }
            await almanac.server.podcasts.refresh()
            let client = try await almanac.connect()
            // The header's allowance and 512 bytes of body: a page of one episode fits, not of them all.
            almanac.server.connection.maximumMessageSize = 4_096 + 512
            let refused = try await #require(throws: BusError.self) {
                _ = try await client.listEpisodes(podcast: "", query: ["limit": .uint32(40)])
            }
            #expect(refused.name == .limitsExceeded)
            #expect(refused.message.hasPrefix("A page of up to 40 episodes takes ") && refused.message.contains("(4608 bytes (0.0 MiB), its max_message_size)")
                    && refused.message.hasSuffix("; ask for fewer (a smaller `limit`)."), "\(refused.message)")
            #expect(try await client.listEpisodes(podcast: "", query: ["limit": .uint32(1)]).episodes.count == 1)
            #expect(almanac.server.connection.isConnected)
        }
    }
}
