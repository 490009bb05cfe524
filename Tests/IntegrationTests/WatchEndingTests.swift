import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// How `almanac watch` ends when it is told to: Ctrl-C (SIGINT) or SIGTERM removes its view
/// with `RemoveView` and exits 0 (docs/cli.md).
@Suite(.onTestThreads, .timeLimit(.hang)) struct WatchEndingTests {
    @Test(arguments: [SIGINT, SIGTERM]) func aStoppedWatchRemovesItsViewAndExits0(signal: Int32) async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let observer = try await AlmanacClient.connect(address: bus.address)
        let monitor = try Tool.Background("dbus-monitor", ["--address", bus.address,
                                                           "type='method_call',interface='\(BusContract.documentInterface)',member='RemoveView'"])
        // dbus-monitor says nothing when it starts listening: ask it something until it has heard.
        let listening = await eventually(every: .zero) {
            _ = try? await observer.removeView(.weather, BusContract.viewPath(.weather, 999))
            return await monitor.waitFor("/999", timeout: 0.5)
        }
        #expect(listening)

        let watch = try ChildProcess(URL(fileURLWithPath: Binaries.almanac), ["watch", "weather", "--location", "Paris"], environment: bus.environment)
        #expect(watch.firstLine(timeout: 60)?.hasPrefix("Paris") == true)
        #expect(try await observer.property(BusContract.Document1.viewCount, of: .weather) == 1)
        watch.send(signal)
        #expect(watch.wait() == 0)
        #expect(try await eventually { try await observer.property(BusContract.Document1.viewCount, of: .weather) == 0 })
        // Removed by the watch itself, not only swept when its connection closed.
        #expect(await monitor.waitFor("\(BusContract.viewPath(.weather, 1).rawValue)\""), "no RemoveView seen:\n\(monitor.output)")
        monitor.stop()
        await observer.connection.close()
        _ = daemon.stop()
    }
}
