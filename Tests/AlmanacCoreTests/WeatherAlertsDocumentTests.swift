import AlmanacCore
@testable import AlmanacDemo
import AlmanacModels
import Foundation
import Locking
import TestHarness
import Testing

/// The weather document's rules for official alerts: published with the ids that began and
/// ended, said once, kept stale when their fetch fails (with `LastError` naming the
/// source, the reading untouched), and forgotten with their place.
@Suite(.onTestThreads, .timeLimit(.hang)) struct WeatherAlertsDocumentTests {
    static let wind = WeatherAlert(id: "w1", event: "Orange wind warning", severity: .severe, headline: "Wind", source: "metalerts")
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let gale = WeatherAlert(id: "g1", event: "Yellow gale warning", severity: .moderate, headline: "Gale", source: "metalerts")

    @Test func alertsArePublishedOnceWithWhatBeganAndEndedAndKeptStaleWhenTheirFetchFails() async throws {
        let weather = WeatherDocument(clock: { Self.now }, logger: .discarding)
        let service = DemoWeatherService()
        let heard = Locked<[WeatherChange]>([])
        weather.document.addView(key: ViewKey("v"), options: WeatherViewOptions(location: "Oslo")) { event in
            if case .changed(_, let change, _) = event { heard.withLock { $0.append(change) } }
        }
        await weather.weatherService(service, didFetchAlerts: [Self.wind], for: "Oslo")
        await weather.weatherService(service, didFetchAlerts: [Self.wind], for: "Oslo")
        #expect(heard.withLock { $0 } == [.alerts(location: "Oslo", PlaceAlerts(alerts: [Self.wind], fetchedAt: Self.now), began: ["w1"], ended: [])])

        await weather.weatherService(service, didFetchAlerts: [Self.gale], for: "Oslo")
        #expect(heard.withLock { $0.last } == .alerts(location: "Oslo", PlaceAlerts(alerts: [Self.gale], fetchedAt: Self.now), began: ["g1"], ended: ["w1"]))

        await weather.weatherService(service, didFailToFetchAlertsFor: "Oslo", source: "MET Norway", error: DemoError("HTTP 503"))
        let stale = try #require(weather.document.snapshot.state.alerts["Oslo"])
        #expect(stale == PlaceAlerts(alerts: [Self.gale], stale: true, error: "MET Norway alerts: HTTP 503", fetchedAt: Self.now))
        #expect(weather.activity.lastError == "Oslo: MET Norway alerts: HTTP 503")
        #expect(weather.document.snapshot.state.failures["Oslo"] == nil, "the forecast did not fail")

        await weather.weatherService(service, didFetchAlerts: [], for: "Oslo")
        #expect(heard.withLock { $0.last } == .alerts(location: "Oslo", PlaceAlerts(fetchedAt: Self.now), began: [], ended: ["g1"]))
        #expect(weather.activity.lastError == "")

        // A place no one wants gets none, and a place let go loses its alerts.
        await weather.weatherService(service, didFetchAlerts: [Self.wind], for: "Atlantis")
        #expect(weather.document.snapshot.state.alerts["Atlantis"] == nil)
        weather.document.removeView(key: ViewKey("v"))
        weather.forgetUnwanted()
        OwnerHold.drain(weather.onOwner)
        #expect(weather.document.snapshot.state.alerts.isEmpty)
    }

    /// A place whose source answered is fetched for its alerts alone every alerts interval,
    /// between its forecasts; a forecast fetch brings them too and counts as theirs; a place
    /// no source covers has no alerts cadence (nothing wakes for it).
    @Test func alertsFallDueOnTheirOwnShorterCadenceOnlyWhereASourceAnswered() async throws {
        let clock = Locked(Self.now)
        let weather = WeatherDocument(policy: .init(interval: 900), alertsPolicy: .init(interval: 600), clock: { clock.withLock { $0 } }, logger: .discarding)
        let service = DemoWeatherService()
        for location in ["Oslo", "Berlin"] {
            weather.document.addView(key: ViewKey(location), options: WeatherViewOptions(location: location)) { _ in }
        }
        #expect(Set(weather.locationsToFetch(for: service)) == ["Oslo", "Berlin"])
        #expect(weather.alertLocationsToFetch(for: service, besides: ["Oslo", "Berlin"]) == [])
        await weather.weatherService(service, didFetchAlerts: [Self.wind], for: "Oslo")
        await weather.weatherService(service, didFetch: StateApplyTests.reading("Oslo"))
        await weather.weatherService(service, didFetch: StateApplyTests.reading("Berlin"))
        #expect(weather.nextDue == Self.now.addingTimeInterval(600))

        clock.withLock { $0 = Self.now.addingTimeInterval(600) }
        #expect(weather.locationsToFetch(for: service) == [])
        #expect(weather.alertLocationsToFetch(for: service, besides: []) == ["Oslo"])
        #expect(weather.nextDue == Self.now.addingTimeInterval(900), "Oslo's alerts are being fetched")

        // Their source fails: they back off on their own, the forecast's schedule untouched.
        await weather.weatherService(service, didFailToFetchAlertsFor: "Oslo", source: "MET Norway", error: DemoError("HTTP 500"))
        let due = try #require(weather.nextDue)
        #expect(due > Self.now.addingTimeInterval(600) && due < Self.now.addingTimeInterval(900))
        #expect(weather.document.snapshot.state.alerts["Oslo"]?.stale == true)
        #expect(weather.document.snapshot.state.readings["Oslo"] != nil && weather.document.snapshot.state.failures["Oslo"] == nil)
    }

    /// Kept alerts (the last good ones, stale) end when their end passes, though their source
    /// says nothing.
    @Test func staleAlertsWhoseEndHasPassedEnd() async throws {
        let clock = Locked(Self.now)
        let weather = WeatherDocument(clock: { clock.withLock { $0 } }, logger: .discarding)
        let service = DemoWeatherService()
        weather.document.addView(key: ViewKey("v"), options: WeatherViewOptions(location: "Oslo")) { _ in }
        var ending = Self.wind
        ending.expires = Self.now.addingTimeInterval(60)
        await weather.weatherService(service, didFetchAlerts: [ending, Self.gale], for: "Oslo")
        clock.withLock { $0 = Self.now.addingTimeInterval(120) }
        await weather.weatherService(service, didFailToFetchAlertsFor: "Oslo", source: "MET Norway", error: DemoError("HTTP 500"))
        #expect(weather.document.snapshot.state.alerts["Oslo"] == PlaceAlerts(alerts: [Self.gale], stale: true, error: "MET Norway alerts: HTTP 500",
                                                                                fetchedAt: Self.now))
    }

    /// Stale alerts are as of the source's last answer, though an answer that changed
    /// nothing was not published.
    @Test func staleAlertsAreAsOfTheLastAnswerNotTheLastChange() async throws {
        let clock = Locked(Self.now)
        let weather = WeatherDocument(clock: { clock.withLock { $0 } }, logger: .discarding)
        let service = DemoWeatherService()
        let heard = Locked(0)
        weather.document.addView(key: ViewKey("v"), options: WeatherViewOptions(location: "Oslo")) { event in
            if case .changed(_, .alerts, _) = event { heard.withLock { $0 += 1 } }
        }
        await weather.weatherService(service, didFetchAlerts: [Self.wind], for: "Oslo")
        clock.withLock { $0 = Self.now.addingTimeInterval(600) }
        await weather.weatherService(service, didFetchAlerts: [Self.wind], for: "Oslo")
        #expect(heard.withLock { $0 } == 1)
        clock.withLock { $0 = Self.now.addingTimeInterval(1200) }
        await weather.weatherService(service, didFailToFetchAlertsFor: "Oslo", source: "MET Norway", error: DemoError("HTTP 500"))
        #expect(weather.document.snapshot.state.alerts["Oslo"]?.fetchedAt == Self.now.addingTimeInterval(600))
    }
}

