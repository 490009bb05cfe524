@testable import AlmanacServices
import AlmanacModels
import Foundation
import TestHarness
import Testing

/// Reading MeteoAlarm's country feeds (CAP as JSON) and MetAlerts' marine warnings, trusting
/// nothing: the fixtures written from their documentation, and answers wrong in every way a
/// server can be.
@Suite(.onTestThreads, .timeLimit(.hang)) struct MeteoAlarmTests {
    static let berlin = (latitude: 52.52437, longitude: 13.41053)

    func fixture(_ name: String) throws -> Data {
        let text = try String(contentsOfFile: SourceTree.path("Tests/Fixtures/alerts/\(name)"), encoding: .utf8)
        return Data(text.replacingOccurrences(of: "{{sent}}", with: "2026-11-28T10:00:00+01:00")
            .replacingOccurrences(of: "{{onset}}", with: "2026-11-28T10:00:00+01:00")
            .replacingOccurrences(of: "{{expires}}", with: "2026-11-28T16:00:00+01:00")
            .replacingOccurrences(of: "{{past}}", with: "2026-11-28T04:00:00+01:00")
            .replacingOccurrences(of: "{{title_times}}", with: "today").utf8)
    }

    func events(_ warnings: [MeteoAlarmWarning], regions: [String] = [], at place: (latitude: Double, longitude: Double) = berlin) -> [String] {
        warnings.filter { $0.applies(latitude: place.latitude, longitude: place.longitude, regions: regions) }.map(\.alert.event)
    }

    @Test func aWarningBelongsToAPlaceItsPolygonHoldsOrWhoseRegionItNames() throws {
        let warnings = try MeteoAlarmFeed.warnings(fixture("meteoalarm-germany.json"))
        // Replaced (by the update naming it), green and the exercise are gone when read.
        #expect(!warnings.contains { ["strong wind (replaced)", "no warning (green)", "exercise"].contains($0.alert.event) })
        #expect(events(warnings) == ["gale-force gusts", "fog (ended)"])
        #expect(events(warnings, regions: ["Berlin", " land  BERLIN"]) == ["gale-force gusts", "frost", "fog (ended)"])
        #expect(events(warnings, at: (48.14, 11.58)) == ["thunderstorms (Munich)"])
        #expect(events(warnings, regions: ["Stadt München"]).contains("thunderstorms (Munich)") == false, "an area with a polygon is matched by it alone")
    }

    @Test func theEnglishInfoIsTakenWithCAPsFields() throws {
        let alert = try #require(try MeteoAlarmFeed.warnings(fixture("meteoalarm-germany.json")).first?.alert)
        #expect(alert.id == "2.49.0.0.276.0.DWD.PVW.fixture.wind.2" && alert.event == "gale-force gusts")
        #expect(alert.headline == "Official WARNING of GALE-FORCE GUSTS" && alert.instruction.hasPrefix("NOTE:"))
        #expect(alert.severity == .severe && alert.certainty == "Likely" && alert.urgency == "Immediate")
        #expect(alert.onset == Date(timeIntervalSince1970: 1_795_856_400) && alert.expires == Date(timeIntervalSince1970: 1_795_878_000))
        #expect(alert.area == "Stadt Berlin" && alert.source == "meteoalarm" && alert.url == "https://www.wettergefahren.de")
    }

    @Test(arguments: ["", "not json", "[]", "{\"warnings\": 3}", "{\"features\": []}"])
    func anAnswerThatIsNotAFeedFailsTheFetch(_ body: String) {
        #expect(throws: FetchError.self) { try MeteoAlarmFeed.warnings(Data(body.utf8)) }
    }

    @Test func entriesOfTheWrongShapeAreDroppedAndAbsurdValuesBounded() throws {
        let long = String(repeating: "x", count: 100_000)
        let ring = (0..<20_000).map { "52.\($0 % 90 + 10),13.\($0 % 80 + 10)" }.joined(separator: " ")
        let entries = [
            #"{"alert": {"identifier": 7, "info": [{"event": "wrong id type"}]}}"#,
            #"{"alert": "not an object"}"#,
            #"{"alert": {"identifier": "no info"}}"#,
            #"{"alert": {"identifier": "a", "info": [{"event": "\#(long)", "severity": ["Severe"], "onset": "9999-01-01T00:00:00Z", "expires": "soon", "#
                + #""area": [{"areaDesc": "\#(long)", "polygon": ["\#(ring)", "nan,nan 1,2 3,4 5,6", 42, "52,13 x 53,14"]}, {"areaDesc": 5, "polygon": {"a": 1}}]}]}}"#,
        ] + Array(repeating: #"{"alert": {"identifier": "b", "info": [{"event": "many", "area": [{"areaDesc": "Land Berlin"}]}]}}"#, count: 3_000)
        let warnings = try MeteoAlarmFeed.warnings(Data(#"{"warnings": [\#(entries.joined(separator: ","))]}"#.utf8))
        #expect(warnings.count == MeteoAlarmFeed.maximumEntries - 3)
        let first = try #require(warnings.first)
        #expect(first.alert.id == "a" && first.alert.severity == .unknown && first.alert.onset == nil && first.alert.expires == nil)
        #expect(first.alert.event.count == 100 && first.alert.area.count == 200)
        // The long ring is cut to its first points; the one with NaNs keeps three; the others are no rings.
        #expect(first.areas[0].polygons.map(\.points.count) == [AlertPolygon.maximumPoints, 3])
        #expect(first.areas[1].polygons.isEmpty && first.areas[1].name == "")
    }

    @Test func aPolygonHoldsWhatIsInsideAndMeasuresHowFarOutsideIs() throws {
        let square = try #require(AlertPolygon(cap: "59.45,10.40 59.45,10.90 59.85,10.90 59.85,10.40 59.45,10.40"))
        #expect(square.contains(latitude: 59.6, longitude: 10.6) && !square.contains(latitude: 59.9139, longitude: 10.7522))
        #expect(square.kilometres(fromLatitude: 59.6, longitude: 10.6) == 0)
        // Oslo is 0.0639° of latitude north of the square: some 7 km.
        #expect(abs(square.kilometres(fromLatitude: 59.9139, longitude: 10.7522) - 7.07) < 0.1)
        #expect(AlertPolygon(cap: "1,2 3,4") == nil && AlertPolygon(cap: "1;2 3;4 5;6") == nil && AlertPolygon(cap: "100,2 3,4 5,6") == nil)
    }

    @Test func aMarineWarningCountsWithinReachOfTheCoastOnly() throws {
        let body = try fixture("metalerts-gale.json")
        let oslo = try OfficialAlerts.metAlerts(body, near: (59.9139, 10.7522))
        #expect(oslo.map(\.event) == ["Yellow gale warning"])
        #expect(oslo.first?.area == "Oslofjorden" && oslo.first?.severity == .moderate)
        #expect(try OfficialAlerts.metAlerts(body, near: (57.5, 3.5)).map(\.id) == ["2.49.0.1.578.0.fixture.gale.2"])
        #expect(try OfficialAlerts.metAlerts(body, near: (62.47, 6.15)).isEmpty)  // Ålesund: far from both
    }

    @Test func theCountryIsTheOneThePlaceNameEndsWithElseGuessedFromBoxes() {
        #expect(MeteoAlarmCountry.named(in: "Berlin, Land Berlin, Germany")?.slug == "germany")
        #expect(MeteoAlarmCountry.named(in: "Skopje, Grad Skopje,  North Macedonia ")?.slug == "republic-of-north-macedonia")
        #expect(MeteoAlarmCountry.named(in: "52.52437,13.41053") == nil && MeteoAlarmCountry.named(in: "Oslo, Oslo, Norway") == nil)
        #expect(MeteoAlarmCountry.guessed(latitude: 52.52, longitude: 13.41).first?.slug == "germany")
        #expect(MeteoAlarmCountry.guessed(latitude: 49.6, longitude: 6.1).first?.slug == "luxembourg")
        #expect(MeteoAlarmCountry.guessed(latitude: 47.5, longitude: 9.6).count == MeteoAlarmCountry.maximumGuesses)
        #expect(MeteoAlarmCountry.guessed(latitude: -33.9, longitude: 151.2).isEmpty)
    }

    @Test func theSourceIsTheNamedCountrysBeforeTheBoxes() {
        #expect(AlertSource.covering(latitude: 52.52, longitude: 13.41) == .meteoalarm)
        // A border town's coordinates may say one country; its name decides.
        #expect(AlertSource.covering(latitude: 59.1, longitude: 11.2) == .metalerts)
        #expect(AlertSource.covering(latitude: 59.1, longitude: 11.2, placeName: "Strömstad, Västra Götaland, Sweden") == .meteoalarm)
        #expect(AlertSource.covering(latitude: 59.33, longitude: 18.07, placeName: "Stockholm, Stockholm, Sweden") == .meteoalarm)
        #expect(AlertSource.covering(latitude: 59.91, longitude: 10.75, placeName: "Oslo, Oslo, Norway") == .metalerts)
        #expect(AlertSource.covering(latitude: 37.2, longitude: -93.3, placeName: "Springfield, Missouri, United States") == .nws)
        #expect(AlertSource.covering(latitude: -33.9, longitude: 151.2, placeName: "Sydney, New South Wales, Australia") == nil)
    }
}
