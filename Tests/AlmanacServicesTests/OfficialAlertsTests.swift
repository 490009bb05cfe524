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

    /// Places known only by coordinates on both sides of Norway's borders: the Nordic
    /// neighbours inside any box that holds Norway go to MeteoAlarm, Norway's places (its
    /// north too, which wraps around Sweden and Finland) to MetAlerts.
    @Test(arguments: [
        ("Oslo", 59.91, 10.75, AlertSource.metalerts), ("Bergen", 60.39, 5.32, .metalerts), ("Tromsø", 69.65, 18.96, .metalerts),
        ("Trondheim", 63.43, 10.39, .metalerts), ("Bodø", 67.28, 14.40, .metalerts), ("Narvik", 68.44, 17.43, .metalerts),
        ("Alta", 69.97, 23.27, .metalerts), ("Kautokeino", 69.01, 23.04, .metalerts), ("Kirkenes", 69.73, 30.05, .metalerts),
        ("Utsira, at sea", 59.3, 4.88, .metalerts), ("Longyearbyen", 78.22, 15.65, .metalerts),
        ("Stockholm", 59.33, 18.07, .meteoalarm), ("Gothenburg", 57.71, 11.97, .meteoalarm), ("Helsinki", 60.17, 24.94, .meteoalarm),
        ("Tallinn", 59.44, 24.75, .meteoalarm), ("Kiruna", 67.86, 20.23, .meteoalarm), ("Östersund", 63.18, 14.64, .meteoalarm),
        ("Abisko", 68.35, 18.83, .meteoalarm), ("Kilpisjärvi", 69.05, 20.8, .meteoalarm), ("Ivalo", 68.66, 27.55, .meteoalarm),
        ("Skagen", 57.72, 10.59, .meteoalarm),
    ])
    func aNordicPlaceByCoordinatesGoesToTheSourceOfItsCountry(place: String, latitude: Double, longitude: Double, source: AlertSource) {
        #expect(AlertSource.covering(latitude: latitude, longitude: longitude) == source, "\(place)")
    }
}
