@testable import AlmanacServices
import AlmanacModels
import Foundation
import TestHarness
import Testing

/// Reading the alert sources' GeoJSON, trusting nothing: the fixtures written from their
/// documentation, and answers that are wrong in every way a server can be.
@Suite(.onTestThreads, .timeLimit(.hang)) struct OfficialAlertsTests {
    func fixture(_ name: String) throws -> Data {
        let text = try String(contentsOfFile: SourceTree.path("Tests/Fixtures/alerts/\(name)"), encoding: .utf8)
        return Data(text.replacingOccurrences(of: "{{sent}}", with: "2026-11-28T10:00:00-06:00")
            .replacingOccurrences(of: "{{onset}}", with: "2026-11-28T10:00:00-06:00")
            .replacingOccurrences(of: "{{expires}}", with: "2026-11-28T16:00:00-06:00")
            .replacingOccurrences(of: "{{title_times}}", with: "today").utf8)
    }

    @Test func nwsAlertsAreReadFromTheirProperties() throws {
        let alert = try #require(try OfficialAlerts.nwsAlerts(fixture("nws-severe.json")).first)
        #expect(alert.id == "urn:oid:2.49.0.1.840.0.fixture.001.1" && alert.event == "Severe Thunderstorm Warning")
        #expect(alert.severity == .severe && alert.certainty == "Observed" && alert.urgency == "Immediate")
        #expect(alert.expires == Date(timeIntervalSince1970: 1_795_903_200) && alert.area == "Greene, MO" && alert.source == "nws")
    }

    @Test func metAlertsTakeTheirPeriodFromWhenInterval() throws {
        let alert = try #require(try OfficialAlerts.metAlerts(fixture("metalerts-wind.json")).first)
        #expect(alert.event == "Orange wind warning" && alert.severity == .severe && alert.urgency == "")
        #expect(alert.onset == Date(timeIntervalSince1970: 1_795_881_600) && alert.expires == Date(timeIntervalSince1970: 1_795_903_200))
        #expect(alert.instruction.hasPrefix("Secure loose objects") && alert.source == "metalerts")
    }

    @Test(arguments: ["", "not json", "[]", "{\"features\": 3}", "{\"type\": \"FeatureCollection\"}"])
    func anAnswerThatIsNotGeoJSONFailsTheFetch(_ body: String) {
        #expect(throws: FetchError.self) { try OfficialAlerts.nwsAlerts(Data(body.utf8)) }
        #expect(throws: FetchError.self) { try OfficialAlerts.metAlerts(Data(body.utf8)) }
    }

    @Test func featuresOfTheWrongShapeAreDroppedAndAbsurdValuesBounded() throws {
        let long = String(repeating: "x", count: 100_000)
        let features = [
            #"{"properties": {"id": 7, "event": "Wrong id type"}}"#,
            #"{"properties": "not an object"}"#,
            #"{"properties": {"id": "a", "event": "Ok", "severity": ["Severe"], "onset": "9999-01-01T00:00:00Z", "expires": "yesterday", "headline": "\#(long)"}}"#,
        ] + Array(repeating: #"{"properties": {"id": "b", "event": "Many"}}"#, count: 300)
        let alerts = try OfficialAlerts.nwsAlerts(Data(#"{"features": [\#(features.joined(separator: ","))]}"#.utf8))
        #expect(alerts.count == OfficialAlerts.maximumAlerts)
        let first = try #require(alerts.first)
        #expect(first.id == "a" && first.severity == .unknown && first.onset == nil && first.expires == nil)
        #expect(first.headline.count == 300)
    }

    @Test func theSourceIsChosenByWhereThePlaceIs() {
        #expect(AlertSource.covering(latitude: 37.2, longitude: -93.3) == .nws)
        #expect(AlertSource.covering(latitude: 61.2, longitude: -149.9) == .nws)  // Anchorage
        #expect(AlertSource.covering(latitude: 59.91, longitude: 10.75) == .metalerts)
        #expect(AlertSource.covering(latitude: 78.22, longitude: 15.65) == .metalerts)  // Longyearbyen
        #expect(AlertSource.covering(latitude: 52.52, longitude: 13.41) == .meteoalarm)
        #expect(AlertSource.covering(latitude: -33.9, longitude: 151.2) == nil)
    }
}
