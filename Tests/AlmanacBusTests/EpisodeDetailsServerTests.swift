import AlmanacCore
import AlmanacBus
import AlmanacServices
import AlmanacWire
import AlmanacModels
import AlmanacDemo
import DBus
import Foundation
import TestHarness
import Testing

/// `GetEpisodeDetails` and `ListEpisodes`' search, served in this process over the demo
/// podcasts (which give notes and chapters), driven by `AlmanacClient`.
@Suite(.onTestThreads, .timeLimit(.hang)) struct EpisodeDetailsServerTests {
    @Test func theDemoEpisodesHaveNotesAndChaptersOverTheBus() async throws {
        try await withInProcessAlmanac(podcastStore: StateStore.inMemory(logger: .discarding)) { almanac in
            for podcast in DemoFeedFetcher.catalogue { try almanac.podcasts.subscribe(podcast) }
            await almanac.server.podcasts.refresh()
            let client = try await almanac.connect()
            let newest = try #require(try await client.listEpisodes(podcast: "demo-garden", query: ["limit": .uint32(1)]).episodes.first)
            let record = try await client.episodeRecord(newest.id)
            #expect(record.episode == newest && record.podcastTitle == "Garden Weather")
            #expect(record.details?.descriptionText.hasPrefix(newest.title + ": the week's weather") == true)
            #expect(record.details?.descriptionLinks.count == 1 && record.details?.episode != nil)
            #expect(record.chapters.map(\.title) == ["Opening", "The week's weather", "Your questions"] && record.chaptersSource == .feed)
            // Nothing of it in the state.
            let (_, state) = try await client.state(of: .podcasts)
            #expect(!"\(state)".contains("the week's weather"))
            // Search, over the same library.
            let found = try await client.listEpisodes(podcast: "", query: ["search": .string("questions garden")])
            #expect(!found.episodes.isEmpty && found.episodes.allSatisfy { $0.podcastID == "demo-garden" })
            let unknown = try await #require(throws: BusError.self) { _ = try await client.episodeRecord("nope") }
            #expect(unknown.name == .invalidArgs && unknown.message == "There is no episode 'nope'.")
        }
    }
}
