import AlmanacModels
import AlmanacWire
import DBus
import TestHarness
import Testing

/// `Almanac1.SetSetting` from a client nobody on the team wrote (gdbus) against the running
/// daemon: a setting of either document lands in it, and a wrong value is refused with
/// nothing changed.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SetSettingToolTests {
    @Test func gdbusSetsASettingOfEitherDocumentWithoutNamingIt() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let client = try await AlmanacClient.connect(address: bus.address)
        func setSetting(_ name: String, _ value: String) async throws -> Tool.Result {
            try await gdbusCall(on: bus, BusContract.rootPath, BusContract.rootInterface, BusContract.Almanac1.setSetting.name, [name, value])
        }

        let units = try await setSetting(Setting.units.busKey, "<'imperial'>")
        #expect(units.status == 0 && units.output.contains("(uint64 "), "\(units.output) \(units.errorOutput)")
        #expect(try WireCoding.decode(WeatherState.self, fromFields: try await client.state(of: .weather).state).units == .imperial)
        let delete = try await setSetting(Setting.deleteWhenPlayed.busKey, "<true>")
        #expect(delete.status == 0, "\(delete.errorOutput)")
        #expect(try await client.podcastSettings().deleteWhenPlayed)

        let before = try await client.podcastSettings()
        let refused = try await setSetting(Setting.playedAt.busKey, "<0.2>")
        #expect(refused.status != 0 && refused.errorOutput.contains("org.freedesktop.DBus.Error.InvalidArgs")
                && refused.errorOutput.contains("'playedAt' is a fraction from 0.5 to 1"), "\(refused.errorOutput)")
        let unknown = try await setSetting("player", "<'mpv'>")
        #expect(unknown.status != 0 && unknown.errorOutput.contains("There is no setting 'player'"), "\(unknown.errorOutput)")
        #expect(try await client.podcastSettings() == before)
        _ = daemon.stop()
    }
}
