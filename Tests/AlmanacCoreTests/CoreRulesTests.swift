@testable import AlmanacCore
@testable import AlmanacDemo
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// The rules that live in the documents, tested without a bus: saved places added and
/// removed, what a refresh claims, what a media player's position becomes, and the
/// document's activity (`Loading`, `LastError`).
@Suite(.onTestThreads, .timeLimit(.hang)) struct CoreRulesTests {
    let clock = TestClock()

    func weather(archive: MemoryWeatherArchive? = nil) -> WeatherDocument {
        let clock = self.clock
        return WeatherDocument(policy: .init(interval: 900), archive: archive, clock: { clock.now }, jitter: { 1 }, logger: .discarding)
    }

    // MARK: Saved places

    @Test func addLocationAppendsOnceAndRemoveLocationTakesItAway() throws {
        let weather = weather()
        try weather.submit(.addLocation(" Paris "), from: nil)
        try weather.submit(.addLocation("Berlin"), from: nil)
        let revision = weather.document.revision
        #expect(try weather.submit(.addLocation("Paris"), from: nil) == revision, "a saved place changes nothing")
        #expect(weather.document.snapshot.state.savedLocations == ["Paris", "Berlin"])
        try weather.submit(.removeLocation(" Paris"), from: nil)
        #expect(weather.document.snapshot.state.savedLocations == ["Berlin"])
        // One Berlin whatever its case, as GNOME Weather keeps it; removed in any case too.
        #expect(try weather.submit(.addLocation("  berlin "), from: nil) == weather.document.revision)
        #expect(weather.document.snapshot.state.savedLocations == ["Berlin"])
        try weather.submit(.removeLocation("BERLIN"), from: nil)
        #expect(weather.document.snapshot.state.savedLocations.isEmpty)
        // A name on one line: a line break would print as two places that cannot be removed.
        let broken = try #require(throws: SubmissionError.self) { try weather.submit(.addLocation("a\nb"), from: nil) }
        #expect(broken.message.contains("cannot hold control characters"))
    }

    @Test func removingAPlaceThatIsNotSavedSaysWhichAreAndChangesNothing() throws {
        let weather = weather()
        try weather.submit(.savedLocations(["Oslo", "Rome"]), from: nil)
        let revision = weather.document.revision
        let error = try #require(throws: LocationNotSaved.self) { try weather.submit(.removeLocation("Atlantis"), from: nil) }
        #expect(error.message == "'Atlantis' is not a saved location. Saved: Oslo, Rome.")
        #expect(weather.document.revision == revision)
        let none = try #require(throws: LocationNotSaved.self) { try WeatherDocument(logger: .discarding).submit(.removeLocation("Oslo"), from: nil) }
        #expect(none.message.hasSuffix("Saved: none."))
    }

    @Test func anAddedPlaceIsValidatedAtOnce() {
        let weather = weather()
        #expect(throws: SubmissionError.self) { try weather.send(.addLocation("  "), from: nil) { _ in } }
        #expect(throws: SubmissionError.self) {
            try weather.send(.addLocation(String(repeating: "x", count: 201)), from: nil) { _ in }
        }
    }

    @Test func theHundredAndFirstPlaceIsRefused() throws {
        let weather = weather()
        try weather.submit(.savedLocations((1...100).map { "Place \($0)" }), from: nil)
        #expect(throws: SubmissionError.self) { try weather.submit(.addLocation("One more"), from: nil) }
        #expect(try weather.submit(.addLocation("Place 7"), from: nil) == weather.document.revision, "saved already")
    }

    /// In one burst each edit applies to the places the ones before it left; one that is
    /// refused answers alone and does not stop the others, which share one write.
    @Test func editsInABurstSettleInOrderAndARefusalStopsOnlyItself() throws {
        let archive = MemoryWeatherArchive()
        let weather = weather(archive: archive)
        let answers = Locked<[Int: Result<UInt64, any Error>]>([:])
        let edits: [WeatherSubmission] = [.addLocation("Oslo"), .removeLocation("Rome"), .addLocation("Rome"), .removeLocation("Oslo")]
        let hold = OwnerHold(weather.onOwner)
        for (index, edit) in edits.enumerated() {
            try weather.send(edit, from: nil) { result in answers.withLock { $0[index] = result } }
        }
        hold.release()
        OwnerHold.drain(weather.onOwner)
        let results = answers.withLock { $0 }
        #expect(results.count == 4)
        #expect((try? results[0]?.get()) != nil && (try? results[2]?.get()) != nil && (try? results[3]?.get()) != nil)
        guard case .failure(let error)? = results[1] else { Issue.record("removing Rome before it was added must fail"); return }
        #expect(error is LocationNotSaved)
        #expect(weather.document.snapshot.state.savedLocations == ["Rome"])
        #expect(archive.settingsWrites.withLock { $0.map(\.savedLocations) } == [["Rome"]], "one write, of where the burst ends")
    }

    @Test func aRefusedWriteFailsTheEditsThatWouldHaveChangedSomethingAndKeepsRefusals() throws {
        let archive = MemoryWeatherArchive()
        archive.refusing.store(true, ordering: .relaxed)
        let weather = weather(archive: archive)
        let answers = Locked<[Int: Result<UInt64, any Error>]>([:])
        let hold = OwnerHold(weather.onOwner)
        for (index, edit) in [WeatherSubmission.addLocation("Oslo"), .removeLocation("Rome")].enumerated() {
            try weather.send(edit, from: nil) { result in answers.withLock { $0[index] = result } }
        }
        hold.release()
        OwnerHold.drain(weather.onOwner)
        let results = answers.withLock { $0 }
        guard case .failure(let first)? = results[0], case .failure(let second)? = results[1] else { Issue.record("\(results)"); return }
        #expect(first is StorageError)
        #expect(second is LocationNotSaved)
        #expect(weather.document.snapshot.state.savedLocations.isEmpty && weather.document.revision == 0)
    }

    /// A place no longer saved and not watched is forgotten by the same submission, and the
    /// revision it answers with is the one after that.
    @Test func aPlaceLetGoIsForgottenAndTheAnswerIsTheRevisionAfter() async throws {
        let weather = weather()
        let service = DemoWeatherService(clock: { [clock] in clock.now })
        service.dataSource = weather
        service.delegate = weather
        try weather.submit(.savedLocations(["Paris"]), from: nil)
        await service.refresh()
        #expect(weather.document.snapshot.state.readings["Paris"] != nil)
        let heard = Locked<[WeatherChange]>([])
        weather.document.addView(key: ViewKey("watcher")) { event in
            if case .changed(_, let change, _) = event { heard.withLock { $0.append(change) } }
        }
        let revision = try weather.submit(.removeLocation("Paris"), from: nil)
        #expect(weather.document.snapshot.state.readings.isEmpty)
        #expect(revision == weather.document.revision)
        #expect(heard.withLock { $0 } == [.savedLocations([]), .forgotten(["Paris"])])
    }

    // MARK: Refresh claims

    @Test func aViewsPlaceIsClaimedOnceAndServedItsLastKnownReading() async throws {
        let archive = MemoryWeatherArchive()
        let hourAgo = clock.now.addingTimeInterval(-3_600)
        let old = try #require(DemoWeatherService(clock: { hourAgo }).reading(for: "Paris", step: 0))
        try archive.saveReading(old)
        let clock = self.clock
        let weather = WeatherDocument(policy: .init(interval: 900), archive: archive, clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        weather.document.addView(key: ViewKey("v"), options: WeatherViewOptions(location: "Paris")) { _ in }
        #expect(await weather.claim(.view(WeatherViewOptions(location: "Paris"))) == ["Paris"])
        #expect(weather.document.snapshot.state.readings["Paris"] == old, "the last known reading is served at once")
        #expect(await weather.claim(.view(WeatherViewOptions(location: "Paris"))).isEmpty, "claimed already")
        #expect(await weather.claim(.due).isEmpty)
        #expect(await weather.claim(.everything).isEmpty)
        #expect(await weather.claim(.view(WeatherViewOptions())).isEmpty, "a view of no place claims nothing")
    }

    @Test func everythingClaimsWhatIsNotDueButNotWhatIsBeingFetched() async throws {
        let weather = weather()
        try weather.submit(.savedLocations(["Paris", "Berlin"]), from: nil)
        #expect(await weather.claim(.due) == ["Paris", "Berlin"])
        let now = clock.now
        await weather.weatherService(DemoWeatherService(), didFetch: try #require(DemoWeatherService(clock: { now }).reading(for: "Paris", step: 0)))
        #expect(await weather.claim(.due).isEmpty, "Paris is fresh, Berlin is being fetched")
        #expect(await weather.claim(.everything) == ["Paris"])
    }

    @Test func aPodcastViewClaimsOnlyAPodcastThatExists() {
        let clock = self.clock
        let podcasts = try! PodcastsDocument(archive: StateStore.inMemory(logger: .discarding, clock: { clock.now }), policy: .init(interval: 60), clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        for podcast in DemoFeedFetcher.catalogue { _ = try? podcasts.subscribe(podcast) }
        let first = DemoFeedFetcher.catalogue[0].id
        #expect(podcasts.claim(.view(PodcastsViewOptions(podcast: "nope"))).isEmpty)
        #expect(podcasts.claim(.view(PodcastsViewOptions(podcast: first))).map(\.id) == [first])
        #expect(podcasts.claim(.view(PodcastsViewOptions(podcast: first))).isEmpty)
        #expect(podcasts.claim(.due).map(\.id) == DemoFeedFetcher.catalogue.map(\.id).sorted().filter { $0 != first })
        #expect(podcasts.claim(.everything).isEmpty, "all are being read")
    }

    // MARK: Positions from media players

    func library() async -> (PodcastsDocument, Episode) {
        let clock = self.clock
        let podcasts = try! PodcastsDocument(archive: StateStore.inMemory(logger: .discarding, clock: { clock.now }), policy: .init(interval: 60), clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        let podcast = Podcast(id: "p", title: "P", author: "A", feedURL: "https://example.com/feed")
        let episode = Episode(id: "p-1", podcastID: "p", title: "One", published: clock.now, duration: 1_000, audioURL: "https://example.com/1.mp3")
        _ = try? podcasts.subscribe(podcast, episodes: [episode])
        return (podcasts, episode)
    }

    @Test func aPlayersPositionIsKeptWhenItMovesASecondOrMore() async throws {
        let (podcasts, episode) = await library()
        #expect(try podcasts.recordPlayback(of: episode.id, at: 120.04, length: nil) != nil)
        #expect(try podcasts.episode(episode.id)?.position == 120)
        #expect(try podcasts.recordPlayback(of: episode.id, at: 120.9, length: nil) == nil, "under a second: not worth a change")
        #expect(try podcasts.recordPlayback(of: episode.id, at: .nan, length: nil) == nil)
        #expect(try podcasts.recordPlayback(of: episode.id, at: 5_000, length: nil) != nil)
        #expect(try podcasts.episode(episode.id)?.position == 1_000, "never past the end")
    }

    @Test func pastThePlayedAtShareTheEpisodeIsPlayed() async throws {
        let (podcasts, episode) = await library()
        // The player's own length counts before the feed's.
        try podcasts.recordPlayback(of: episode.id, at: 190, length: 200)
        #expect(try podcasts.episode(episode.id)?.played == true)
        try podcasts.submit(PlayStateSubmission(episodeID: episode.id, played: false, position: 0), from: nil)
        try podcasts.recordPlayback(of: episode.id, at: 940, length: nil)
        #expect(try podcasts.episode(episode.id)?.played == false, "94% of the feed's 1000 s is not yet 95%")
        try podcasts.recordPlayback(of: episode.id, at: 950, length: nil)
        #expect(try podcasts.episode(episode.id)?.played == true)
    }

    @Test func reachingThePodcastsOutroMarksTheEpisodePlayed() async throws {
        let (podcasts, episode) = await library()
        try podcasts.setPreferences(PreferencesSubmission(skipOutro: 120), of: "p")
        try podcasts.recordPlayback(of: episode.id, at: 870, length: nil)
        #expect(try podcasts.episode(episode.id)?.played == false, "870 s is before the outro of the last 120 s")
        try podcasts.recordPlayback(of: episode.id, at: 880, length: nil)
        #expect(try podcasts.episode(episode.id)?.played == true, "880 s of 1000 s is in the outro, short of 95%")
    }

    @Test func onePathForEverySubmission() async throws {
        let (podcasts, episode) = await library()
        try podcasts.submit(.playState(PlayStateSubmission(episodeID: episode.id, position: 12)), from: ViewKey("v"))
        try podcasts.submit(.settings(SettingsSubmission(playedAt: 0.5)), from: ViewKey("v"))
        #expect(try podcasts.episode(episode.id)?.position == 12)
        #expect(podcasts.document.snapshot.state.settings.playedAt == 0.5)
        let error = try #require(throws: SubmissionError.self) {
            try podcasts.submit(.playState(PlayStateSubmission(episodeID: "nope", played: true)), from: nil)
        }
        #expect(error.message == "There is no episode 'nope'.", "the core names no command; the CLI adds what to do")
    }

    // MARK: Activity

    @Test func loadingFlipsOnlyOnTheFirstStartAndTheLastEnd() {
        let activity = DocumentActivity()
        let flips = Locked<[Bool]>([])
        for starting in [true, true, false, true, false, false] {
            activity.fetch(starting: starting) { loading in flips.withLock { $0.append(loading) } }
        }
        #expect(flips.withLock { $0 } == [true, false])
        #expect(!activity.isLoading)
    }

    /// LastError never names an item that has recovered while another still fails.
    @Test func lastErrorFollowsTheItemsStillFailing() {
        let activity = DocumentActivity()
        let heard = Locked<[DocumentActivity.Event]>([])
        activity.observe { event in heard.withLock { $0.append(event) } }
        activity.failed("a", "a: HTTP 500")
        activity.failed("b", "b: HTTP 503")
        activity.failed("c", "c: timed out")
        activity.succeeded("a")
        #expect(activity.lastError == "c: timed out" && heard.withLock { $0 }.isEmpty, "not a's: nothing to change")
        activity.succeeded("c")
        #expect(activity.lastError == "b: HTTP 503" && heard.withLock { $0 } == [.replaced("b: HTTP 503")])
        activity.keep(only: ["a", "c"])
        #expect(activity.lastError.isEmpty && heard.withLock { $0 } == [.replaced("b: HTTP 503"), .cleared])
    }

    @Test func aFailedFetchIsTheDocumentsLastError() async throws {
        let weather = weather()
        let service = DemoWeatherService(clock: { [clock] in clock.now })
        service.dataSource = weather
        service.delegate = weather
        try weather.submit(.savedLocations(["Atlantis"]), from: nil)
        #expect(weather.activity.lastError.isEmpty)
        await service.refresh()
        #expect(weather.activity.lastError.hasPrefix("Atlantis: The demo provider does not know 'Atlantis'."))
    }
}
