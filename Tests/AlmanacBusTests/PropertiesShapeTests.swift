import AlmanacModels
import AlmanacWire
import DBus
import TestHarness
import Testing

/// `Sync1`'s and `Download1`'s properties are each described once, in their shape's table:
/// the server's property table, the `a{sv}` and the client's reading all come from it.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PropertiesShapeTests {
    static let status = SyncStatus(account: SyncAccount(server: "https://gpodder.example.org", user: "zoë", device: "laptop", caption: "Laptop", flavour: .nextcloud),
                                   queued: 2, lastError: "", syncing: true, passwordStore: "file")

    /// The keys of the `a{sv}`, in the order it lists them.
    static func keys(_ value: some WireShaped) throws -> [String] {
        guard case .dictionary(_, _, let entries) = try WireCoding.value(value) else { return [] }
        return entries.map { $0.key.stringValue ?? "" }
    }

    @Test func theServersTableAndTheAsvNameTheSamePropertiesInTheSameOrder() throws {
        #expect(SyncStatus.Wire.fields.map(\.name.rawValue) == (try Self.keys(Self.status)))
        #expect(SyncStatus.Wire.fields.map(\.name.rawValue).first == "LoggedIn")
        let job = DownloadJob(id: 3, episodeID: "p-1", podcastID: "p", url: "https://example.org/1.mp3", folder: "", name: "", owner: ":1.9", state: .downloading)
        #expect(DownloadProperties.fields.map(\.name.rawValue) == (try Self.keys(DownloadProperties(job, error: ""))))
        #expect(DownloadProperties.fields.map(\.name.rawValue) == ["Episode", "Podcast", "URL", "State", "Received", "Total", "Error", "File", "Owner"])
    }

    @Test func theServersEntryOfAPropertyIsTheAsvsEntry() throws {
        let wire = Self.status.wire
        let entries = Dictionary(uniqueKeysWithValues: SyncStatus.Wire.fields.map { $0.entry(wire) })
        #expect(entries == (try WireCoding.fields(Self.status)))
    }

    /// A `PropertiesChanged` carries only what changed: a client reads what it has heard,
    /// the rest at their defaults.
    @Test func aClientReadsThePropertiesItHasHeardSoFar() throws {
        let heard = try WireCoding.decode(SyncStatus.self, fromFields: ["Queued": .uint32(4), "Syncing": .boolean(true)])
        #expect(heard == SyncStatus(queued: 4, syncing: true))
        let job = try WireCoding.decode(DownloadProperties.self, fromFields: ["State": .string("completed"), "Received": .uint64(9)]).job(at: "/org/almanac/Almanac1/downloads/5")
        #expect(job?.id == 5 && job?.state == .completed && job?.received == 9 && job?.episodeID == "")
    }

    /// A property of another type than its definition's is refused, not taken as its default.
    @Test func aPropertyOfAnotherTypeIsRefused() {
        #expect(throws: DecodingError.self) { try WireCoding.decode(SyncStatus.self, fromFields: ["Queued": .string("4")]) }
        #expect(throws: DecodingError.self) { try WireCoding.decode(DownloadProperties.self, fromFields: ["Received": .int32(-1)]) }
    }
}
