import AlmanacWire
import DBus
import TestHarness
import Testing

/// The object paths `BusContract` computes are the ones docs/bus-api.md fixes. The names
/// themselves are checked where they meet the code: `BusNamesWrittenOnceTests` (each written
/// once in Sources) and `ServedMembersTests` (the live daemon serves exactly the declared members).
@Suite(.onTestThreads, .timeLimit(.hang)) struct BusContractTests {
    @Test func computedPathsAreTheDocumentedOnes() {
        #expect(BusContract.documentPath(.weather).rawValue == "/org/almanac/Almanac1/weather")
        #expect(BusContract.documentPath(.podcasts).rawValue == "/org/almanac/Almanac1/podcasts")
        #expect(BusContract.viewPath(.weather, 3).rawValue == "/org/almanac/Almanac1/weather/views/3")
        #expect(BusContract.viewPath(.podcasts, 1).rawValue == "/org/almanac/Almanac1/podcasts/views/1")
        #expect(BusContract.downloadPath(7).rawValue == "/org/almanac/Almanac1/downloads/7")
    }
}
