import AlmanacCore
import AlmanacModels
import TestHarness
import Testing

/// Which place a name means among the geocoder's matches.
@Suite(.onTestThreads, .timeLimit(.hang))
struct PlaceQueryTests {
    static func place(_ id: Int, _ region: String, _ country: String, _ code: String, population: Int?) -> PlaceMatch {
        PlaceMatch(id: id, name: "Springfield", region: region, country: country, countryCode: code, latitude: 1, longitude: 2, population: population)
    }

    let matches = [
        place(1, "Missouri", "United States", "US", population: 169_176), place(2, "Massachusetts", "United States", "US", population: 155_929),
        place(3, "New South Wales", "Australia", "AU", population: 90_000), place(4, "Queensland", "Australia", "AU", population: 5_000),
    ]

    @Test func readsTheFormsAPlaceIsGivenIn() {
        #expect(PlaceQuery("52.52, 13.41").kind == .coordinates(latitude: 52.52, longitude: 13.41))
        #expect(PlaceQuery(" ID:4250542 ").kind == .id(4250542))
        #expect(PlaceQuery("id:x").kind == .name)
        let named = PlaceQuery("Springfield, Illinois , US")
        #expect(named.kind == .name && named.name == "Springfield" && named.qualifiers == ["illinois", "us"])
    }

    @Test func choosesByRegionCountryOrPopulation() throws {
        #expect(try PlaceQuery("Springfield").choose(matches, location: "Springfield").id == 1)
        #expect(try PlaceQuery("Springfield, Massachusetts").choose(matches, location: "x").id == 2)
        #expect(try PlaceQuery("Springfield, new south").choose(matches, location: "x").id == 3)
        // Two in Australia, one ten times bigger: that one.
        #expect(try PlaceQuery("Springfield, AU").choose(matches, location: "x").id == 3)
        #expect(try PlaceQuery("Springfield, australia, queensland").choose(matches, location: "x").id == 4)
        // Two alike in the US: which one is for the user to say.
        #expect(throws: PlaceNotFound.self) { try PlaceQuery("Springfield, US").choose(matches, location: "Springfield, US") }
        // A two-letter qualifier must be whole ("Ma" is no prefix of Massachusetts).
        #expect(throws: PlaceNotFound.self) { try PlaceQuery("Springfield, ma").choose(matches, location: "x") }
        #expect(throws: PlaceNotFound.self) { try PlaceQuery("Springfield").choose([], location: "x") }
    }
}
