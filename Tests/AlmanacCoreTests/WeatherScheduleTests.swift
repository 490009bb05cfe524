import AlmanacCore
import AlmanacDemo
import AlmanacModels
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing


/// The weather document as the schedule's keeper: what is due, claims, backoff, last-known readings.
@Suite(.onTestThreads, .timeLimit(.hang)) struct WeatherScheduleTests {
    let clock = TestClock()

    func document(archive: MemoryWeatherArchive? = nil) -> (WeatherDocument, DemoWeatherService) {
        let clock = self.clock
        let weather = WeatherDocument(policy: .init(interval: 900), archive: archive, clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        let service = DemoWeatherService(clock: { clock.now })
        service.dataSource = weather
        service.delegate = weather
        return (weather, service)
    }

    @Test func claimsAreReleasedBySuccessAndByFailure() async throws {
        let (weather, service) = document()
        weather.document.addView(key: ViewKey("a"), options: WeatherViewOptions(location: "Paris")) { _ in }
        weather.document.addView(key: ViewKey("b"), options: WeatherViewOptions(location: "Atlantis")) { _ in }
        #expect(weather.take(weather.wantedLocations) == ["Paris", "Atlantis"])
        // Claimed: a second view of Paris arriving now shares the fetch under way.
        #expect(weather.take(["Paris"]).isEmpty)
        await service.refresh(["Paris", "Atlantis"])
        #expect(weather.failuresInARow(of: "Atlantis") == 1 && weather.failuresInARow(of: "Paris") == 0)
        // Paris is next due after the interval; Atlantis after its first retry (30 s, full jitter).
        #expect(weather.nextDue == clock.now.addingTimeInterval(30))
        clock.advance(30)
        #expect(weather.locationsToFetch(for: service) == ["Atlantis"])
        clock.advance(870)
        #expect(weather.locationsToFetch(for: service) == ["Paris"])
    }

    @Test func aPlaceForgottenMidFetchKeepsItsClaimUntilTheFetchEnds() async throws {
        let (weather, service) = document()
        weather.document.addView(key: ViewKey("a"), options: WeatherViewOptions(location: "Oslo")) { _ in }
        #expect(weather.take(["Oslo"]) == ["Oslo"])
        weather.document.removeView(key: ViewKey("a"))
        weather.forgetUnwanted()
        OwnerHold.drain(weather.onOwner)
        // Wanted again before the fetch ends: still claimed, so not fetched twice.
        #expect(weather.take(["Oslo"]).isEmpty)
        await service.refresh(["Oslo"])
        // The fetch ended; nobody wanted it, so nothing was kept, and the claim is gone.
        #expect(weather.document.snapshot.state.readings["Oslo"] == nil)
        clock.advance(900)
        #expect(weather.take(["Oslo"]) == ["Oslo"])
    }

    @Test func aKeptReadingIsServedAtOnceAndFetchedAgainOnlyWhenOld() async throws {
        let archive = MemoryWeatherArchive()
        let (weather, service) = document(archive: archive)
        weather.document.addView(key: ViewKey("a"), options: WeatherViewOptions(location: "Tokyo")) { _ in }
        await service.refresh(["Tokyo"])
        #expect(archive.lastReading(at: "Tokyo") != nil)

        // A daemon started later, with the archive: five minutes on, the kept reading is fresh.
        clock.advance(300)
        let (later, _) = document(archive: archive)
        later.document.addView(key: ViewKey("b"), options: WeatherViewOptions(location: "Tokyo")) { _ in }
        await later.restoreLastKnown("Tokyo")
        #expect(later.document.snapshot.state.readings["Tokyo"] == archive.lastReading(at: "Tokyo"))
        #expect(later.take(["Tokyo"]).isEmpty)
        clock.advance(600)
        #expect(later.take(["Tokyo"]) == ["Tokyo"])

        // An hour old: served, but fetched at once.
        clock.advance(3600)
        let (old, _) = document(archive: archive)
        old.document.addView(key: ViewKey("c"), options: WeatherViewOptions(location: "Tokyo")) { _ in }
        await old.restoreLastKnown("Tokyo")
        #expect(old.document.snapshot.state.readings["Tokyo"] != nil)
        #expect(old.take(["Tokyo"]) == ["Tokyo"])
    }

    @Test func savingASavedPlaceAtTheLimitChangesNothing() throws {
        let (weather, _) = document()
        let hundred = (1...100).map { "Place \($0)" }
        try weather.submit(.savedLocations(hundred), from: nil)
        let revision = weather.document.revision
        #expect(try weather.submit(.savedLocations(hundred + ["Place 7"]), from: nil) == revision)
        #expect(throws: SubmissionError.self) { try weather.submit(.savedLocations(hundred + ["Place 101"]), from: nil) }
    }
}
