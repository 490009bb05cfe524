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
    static let gale = WeatherAlert(id: "g1", event: "Yellow gale warning", severity: .moderate, headline: "Gale", source: "metalerts")

    @Test func alertsArePublishedOnceWithWhatBeganAndEndedAndKeptStaleWhenTheirFetchFails() async throws {
        let weather = WeatherDocument()
        let service = DemoWeatherService()
        let heard = Locked<[WeatherChange]>([])
        weather.document.addView(key: ViewKey("v"), options: WeatherViewOptions(location: "Oslo")) { event in
            if case .changed(_, let change, _) = event { heard.withLock { $0.append(change) } }
        }
        await weather.weatherService(service, didFetchAlerts: [Self.wind], for: "Oslo")
        await weather.weatherService(service, didFetchAlerts: [Self.wind], for: "Oslo")
        #expect(heard.withLock { $0 } == [.alerts(location: "Oslo", PlaceAlerts(alerts: [Self.wind]), began: ["w1"], ended: [])])

        await weather.weatherService(service, didFetchAlerts: [Self.gale], for: "Oslo")
        #expect(heard.withLock { $0.last } == .alerts(location: "Oslo", PlaceAlerts(alerts: [Self.gale]), began: ["g1"], ended: ["w1"]))

        await weather.weatherService(service, didFailToFetchAlertsFor: "Oslo", source: "metalerts", error: DemoError("HTTP 503"))
        let stale = try #require(weather.document.snapshot.state.alerts["Oslo"])
        #expect(stale == PlaceAlerts(alerts: [Self.gale], stale: true, error: "alerts from metalerts: HTTP 503"))
        #expect(weather.activity.lastError == "Oslo: alerts from metalerts: HTTP 503")
        #expect(weather.document.snapshot.state.failures["Oslo"] == nil, "the forecast did not fail")

        await weather.weatherService(service, didFetchAlerts: [], for: "Oslo")
        #expect(heard.withLock { $0.last } == .alerts(location: "Oslo", PlaceAlerts(), began: [], ended: ["g1"]))
        #expect(weather.activity.lastError == "")

        // A place no one wants gets none, and a place let go loses its alerts.
        await weather.weatherService(service, didFetchAlerts: [Self.wind], for: "Atlantis")
        #expect(weather.document.snapshot.state.alerts["Atlantis"] == nil)
        weather.document.removeView(key: ViewKey("v"))
        weather.forgetUnwanted()
        OwnerHold.drain(weather.onOwner)
        #expect(weather.document.snapshot.state.alerts.isEmpty)
    }
}
