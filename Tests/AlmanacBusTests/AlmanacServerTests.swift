import AlmanacCore
import AlmanacBus
import AlmanacServices
import AlmanacWire
import AlmanacModels
import DBus
import Foundation
import Locking
import TestHarness
import Testing

/// `AlmanacServer` in this process on a private bus, driven by `AlmanacClient` from other
/// connections: the bus contract without spawning `almanacd`.
@Suite(.onTestThreads, .timeLimit(.hang)) struct AlmanacServerTests {
    @Test func aViewHearsUpdatedWhenASubmitChangesWhatItWatches() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let client = try await almanac.connect()
            let daemon = try #require(try await client.daemonOwner())
            let updates = try await client.updates(of: .weather, from: daemon)
            let view = try await client.addView(.weather, options: ["location": .string("Paris")])
            let revision = try await client.submit(.weather, ["units": .string("imperial")])
            var heard: [String: Value]?
            for await message in updates {
                #expect(message.path == view)
                let (updateRevision, data) = try message.arguments(UInt64.self, [String: Value].self)
                guard data["kind"] == .string("units") else { continue }
                #expect(updateRevision == revision)
                heard = data
                break
            }
            #expect(heard?["units"] == .string("imperial"))
        }
    }

    /// A view's place is named by something: blank space or a line break is refused, on
    /// AddView and SetOptions alike, and no view is made.
    @Test func aBlankOrBrokenLocationMakesNoView() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let client = try await almanac.connect()
            for bad in ["   ", "a\nb"] {
                let error = try await #require(throws: BusError.self) { _ = try await client.addView(.weather, options: ["location": .string(bad)]) }
                #expect(error.name == .invalidArgs && error.message.contains("not blank, on one line"), "\(error)")
            }
            #expect(almanac.server.weather.owners.isEmpty, "no view was made")
            let view = try await client.addView(.weather, options: ["location": .string("Paris")])
            let error = try await #require(throws: BusError.self) {
                try await client.connection.call(BusContract.serviceName, path: view, interface: BusContract.viewInterface, method: BusContract.View1.setOptions.name) {
                    try ["location": Value.variant(.string("  "))].encode(to: &$0)
                }
            }
            #expect(error.name == .invalidArgs)
        }
    }

    @Test func everyChangeIsBroadcastAsChangedToAnyoneListening() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let client = try await almanac.connect()
            let listener = try await almanac.connect()
            let changes = try await listener.connection.signals(matching: BusContract.Document1.changed.rule(path: BusContract.documentPath(.weather)))
            let revision = try await client.submit(.weather, ["locations": .array(.string, [.string("Berlin"), .string("Oslo")])])
            var iterator = changes.makeAsyncIterator()
            let changed = try #require(await iterator.next())
            let (broadcastRevision, fields) = try changed.arguments(UInt64.self, [String: Value].self)
            #expect(broadcastRevision == revision)
            #expect(fields["kind"] == .string("savedLocations"))
            #expect(fields["savedLocations"] == .array(.string, [.string("Berlin"), .string("Oslo")]))
            #expect(changed.sender == (try await client.daemonOwner()))
        }
    }

    @Test func getStateGivesTheWholeStateAtItsRevision() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let client = try await almanac.connect()
            let (initial, fresh) = try await client.state(of: .weather)
            #expect(initial == 0 && fresh["units"] == .string("metric"))
            _ = try await client.submit(.weather, ["units": .string("imperial")])
            try await client.addLocation("Berlin")
            let (revision, state) = try await client.state(of: .weather)
            #expect(revision == almanac.weather.document.revision && revision == 2)
            #expect(state["units"] == .string("imperial"))
            #expect(state["savedLocations"] == .array(.string, [.string("Berlin")]))
            // What the document keeps is what went to its archive.
            #expect(almanac.weatherArchive.settingsWrites.withLock { $0.last.map { "\($0.units) \($0.savedLocations)" } } == "imperial [\"Berlin\"]")
        }
    }

    @Test func aBadSubmitIsInvalidArgsAndChangesNothing() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let client = try await almanac.connect()
            let listener = try await almanac.connect()
            let changes = try await listener.connection.signals(matching: BusContract.Document1.changed.rule(path: BusContract.documentPath(.weather)))
            let before = try await client.state(of: .weather)
            for bad: [String: Value] in [["units": .string("kelvin")], ["colour": .string("red")], ["units": .int32(3)], [:]] {
                let error = try await #require(throws: BusError.self, "\(bad)") { _ = try await client.submit(.weather, bad) }
                #expect(error.name == .invalidArgs, "\(bad): \(error)")
            }
            let after = try await client.state(of: .weather)
            #expect(after.revision == before.revision && after.state == before.state)
            #expect(almanac.weatherArchive.settingsWrites.withLock { $0.isEmpty })
            // Nothing was broadcast for them: the first Changed is the next good submit's.
            let good = try await client.submit(.weather, ["units": .string("imperial")])
            var iterator = changes.makeAsyncIterator()
            let first = try #require(await iterator.next())
            #expect(try first.arguments(UInt64.self, [String: Value].self).0 == good)
            #expect(good == before.revision + 1)
        }
    }

    @Test func onlyItsOwnerRemovesAView() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let owner = try await almanac.connect()
            let other = try await almanac.connect()
            let view = try await owner.addView(.weather, options: ["location": .string("Paris")])
            let denied = try await #require(throws: BusError.self) { try await other.removeView(.weather, view) }
            #expect(denied.name == .accessDenied)
            #expect(almanac.server.weather.viewCount == 1)
            let unknown = try await #require(throws: BusError.self) { try await owner.removeView(.weather, BusContract.viewPath(.weather, 99)) }
            #expect(unknown.name == BusContract.noSuchView)
            try await owner.removeView(.weather, view)
            #expect(almanac.server.weather.viewCount == 0)
            #expect(try await owner.status().documents.first { $0.name == "weather" }?.viewCount == 0)
        }
    }

    @Test func viewsAreRemovedWhenTheirOwnerLeavesTheBus() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let owner = try await almanac.connect()
            let stayer = try await almanac.connect()
            _ = try await owner.addView(.weather, options: ["location": .string("Paris")])
            _ = try await owner.addView(.podcasts, options: [:])
            let kept = try await stayer.addView(.weather, options: [:])
            #expect(almanac.server.weather.viewCount == 2 && almanac.server.podcasts.viewCount == 1)
            await owner.connection.close()
            #expect(await eventually { almanac.server.weather.viewCount == 1 && almanac.server.podcasts.viewCount == 0 })
            #expect(almanac.server.weather.owners == [try #require(stayer.connection.uniqueName)])
            // The one left is still the stayer's to remove.
            try await stayer.removeView(.weather, kept)
            #expect(almanac.server.weather.viewCount == 0)
        }
    }

    @Test func savedPlacesAreAddedAndRemovedAndAnUnknownOneIsNamedSo() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let client = try await almanac.connect()
            try await client.addLocation("Berlin")
            try await client.addLocation("Tokyo")
            #expect(try await client.savedLocations() == ["Berlin", "Tokyo"])
            let unknown = try await #require(throws: BusError.self) { try await client.removeLocation("Nowhere") }
            #expect(unknown.name == BusContract.unknownLocation)
            #expect(unknown.message.contains("Saved: Berlin, Tokyo."), "\(unknown.message)")
            try await client.removeLocation(" Berlin ")
            #expect(try await client.savedLocations() == ["Tokyo"])
            #expect(almanac.weather.document.snapshot.state.savedLocations == ["Tokyo"])
        }
    }

    @Test func episodesComeAPageAtATimeFollowingTheCursor() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            let podcast = Podcast(id: "show", title: "The Show", author: "", feedURL: "https://example.com/show.xml")
            let episodes = (1...7).map { n in
                Episode(id: "show-\(n)", podcastID: "show", title: "Episode \(n)", published: Date(timeIntervalSince1970: Double(n) * 86_400), duration: 600)
            }
            try almanac.podcasts.subscribe(podcast, episodes: episodes)
            let client = try await almanac.connect()
            var pages: [[String]] = []
            var cursor: String?
            repeat {
                var query: [String: Value] = ["limit": .uint32(3)]
                if let cursor { query["cursor"] = .string(cursor) }
                let page = try await client.listEpisodes(podcast: "show", query: query)
                #expect(page.total == 7)
                pages.append(page.episodes.map(\.id))
                cursor = page.nextCursor
            } while cursor != nil && pages.count < 10
            #expect(pages == [["show-7", "show-6", "show-5"], ["show-4", "show-3", "show-2"], ["show-1"]], "newest first, each once")
            // Every podcast's episodes when none is named; an unknown one and a bad limit are refused.
            #expect(try await client.listEpisodes(podcast: "", query: [:]).total == 7)
            let unknown = try await #require(throws: BusError.self) { _ = try await client.listEpisodes(podcast: "nope", query: [:]) }
            #expect(unknown.name == .invalidArgs)
            let tooMany = try await #require(throws: BusError.self) { _ = try await client.listEpisodes(podcast: "show", query: ["limit": .uint32(0)]) }
            #expect(tooMany.name == .invalidArgs && tooMany.message.contains("'limit' is a whole number from 1 to 500"))
        }
    }
}
