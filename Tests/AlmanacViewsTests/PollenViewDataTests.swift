import AlmanacModels
import AlmanacViews
import Foundation
import TestHarness
import Testing

/// Pollen counts as `almanac weather` names them: levels in MeteoSwiss's bands, the plants in
/// the air the most first, nothing where the provider gives none.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PollenViewDataTests {
    static let observed = Date(timeIntervalSince1970: 1_800_000_000)

    static func details(_ pollen: Pollen?) -> WeatherDetailsViewData {
        WeatherDetailsViewData(details: nil, airQuality: AirQuality(europeanAQI: 21, observedAt: observed, fetchedAt: observed, pollen: pollen),
                               units: .metric)
    }

    @Test(arguments: [
        ("birch", 0.5, PollenLevel.none), ("birch", 1, .low), ("birch", 9.9, .low), ("birch", 10, .moderate), ("birch", 85, .high),
        ("birch", 300, .veryHigh), ("alder", 250, .veryHigh), ("grass", 19, .low), ("grass", 25, .moderate), ("grass", 50, .high),
        ("grass", 150, .veryHigh), ("ragweed", 6, .moderate), ("ragweed", 11, .high), ("ragweed", 40, .veryHigh),
        ("mugwort", 12, .high), ("olive", 60, .high),
    ])
    func countsFallInTheirPlantsBands(plant: String, grains: Double, level: PollenLevel) {
        #expect(PollenLevel(plant: plant, grains: grains) == level)
    }

    @Test func anUnknownPlantOrCountHasNoLevel() {
        #expect(PollenLevel(plant: "hazel", grains: 50) == nil)
        #expect(PollenLevel(plant: "birch", grains: .nan) == nil)
    }

    @Test func plantsInTheAirAreNamedTheMostFirst() throws {
        let view = Self.details(Pollen(alder: 3, birch: 85, grass: 25, mugwort: 0, olive: 0, ragweed: 0))
        #expect(view.pollen == "birch high, grass moderate, alder low")
        #expect(view.fields["pollen"] == "birch high, grass moderate, alder low")
        #expect(view.pollenLine(width: 80)?.plain == "  Pollen: birch high, grass moderate, alder low")
        // Narrow: the least go first.
        #expect(view.pollenLine(width: 40)?.plain == "  Pollen: birch high, grass moderate")
        guard case .object(let air)? = view.jsonFields["airQuality"], case .object(let counts)? = air["pollen"] else {
            Issue.record("no pollen in --json")
            return
        }
        #expect(counts["birch"] == .number(85) && counts["mugwort"] == .number(0) && counts.count == 6)
        #expect(air["pollenText"] == .string("birch high, grass moderate, alder low"))
    }

    @Test func nothingIsShownWhereTheProviderGivesNoneOrNoneIsInTheAir() {
        for pollen in [nil, Pollen(alder: 0, birch: 0.4, grass: 0, mugwort: 0, olive: 0, ragweed: 0)] {
            let view = Self.details(pollen)
            #expect(view.pollen.isEmpty && view.pollenLine(width: 80) == nil)
        }
        guard case .object(let air)? = Self.details(nil).jsonFields["airQuality"] else {
            Issue.record("no air in --json")
            return
        }
        #expect(air["pollen"] == .null && air["pollenText"] == .null)
    }
}
