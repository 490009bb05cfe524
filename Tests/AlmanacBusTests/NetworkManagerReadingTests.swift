@testable import AlmanacBus
import AlmanacModels
import DBus
import TestHarness
import Testing

/// NetworkManager's `State` and `Metered` as almanacd reads them: only connected (global) is
/// online, metered at yes or guess-yes, and a value of the wrong type or out of range is no
/// reading at all.
@Suite(.onTestThreads, .timeLimit(.hang)) struct NetworkManagerReadingTests {
    @Test(arguments: [
        (UInt32?.none, UInt32?.none, NetworkState.unknown), (0, nil, .unknown), (10, nil, .offline), (20, 1, .offline),
        (30, nil, .offline), (40, nil, .connecting), (50, nil, .connecting), (60, 1, .connecting),
        (70, nil, .online), (70, 0, .online), (70, 1, .metered), (70, 2, .online), (70, 3, .metered), (70, 4, .online),
    ])
    func stateAndMeteredMakeTheNetwork(state: UInt32?, metered: UInt32?, network: NetworkState) {
        #expect(NetworkManagerReading(state: state, metered: metered).network == network)
    }

    @Test func valuesOfTheWrongTypeOrOutOfRangeAreIgnored() {
        var reading = NetworkManagerReading(state: 70, metered: 3)
        reading.apply(["State": .int32(20), "Metered": .string("yes")])
        reading.apply(["State": .uint32(4_000_000), "Metered": .uint32(101)])
        #expect(reading == NetworkManagerReading(state: 70, metered: 3))
        reading.apply(["State": .variant(.uint32(20)), "Other": .boolean(true)])
        #expect(reading.network == .offline)
    }
}
