import AlmanacBus
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
                                                     method: BusContract.Document1.getState) { _ in }
            }
            #expect(refused.name == .limitsExceeded)
            #expect(refused.message.contains("GetStateDescriptor") && refused.message.contains("8192 bytes"), "\(refused.message)")
            let (stateRevision, state) = try await client.state(of: .weather)
            #expect(stateRevision == revision)
            #expect(state["savedLocations"] == .array(.string, Self.places.map { .string($0) }))
            #expect(almanac.server.connection.isConnected)
        }
    }
}
