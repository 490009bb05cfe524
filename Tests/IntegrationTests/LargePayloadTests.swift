import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Answers larger than a bus message, through the real binaries on a bus with dbus-daemon's
/// default limits (32 MiB a message, as a system bus): the daemon answers by descriptor or
/// refuses with a clear error, and never loses its bus connection over what it sends.
// Serialized: each parses tens of megabytes in a debug build; side by side on two cores they
// starve each other past the CLI's patience.
@Suite(.onTestThreads, .serialized, .timeLimit(.hang)) struct LargePayloadTests {
    /// An RSS feed of `episodes` items of ~2.3 KB each (19 MB for 8,000, 100 MB for 46,000).
    static func writeFeed(episodes: Int, to url: URL) throws {
        let paragraph = "<p>" + String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ", count: 4) + "</p>"
        let description = String(repeating: paragraph, count: 4)
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel><title>Huge</title><link>https://huge.example/</link><description>A very large feed</description>\n"
        text.reserveCapacity(episodes * 2_500)
        for n in stride(from: episodes, to: 0, by: -1) {
            text += "<item><title>Episode \(n)</title><guid isPermaLink=\"false\">huge-\(n)</guid><pubDate>Mon, 01 Jan 2024 10:00:00 +0000</pubDate>"
            text += "<enclosure url=\"https://huge.example/a/\(n).mp3\" length=\"12345678\" type=\"audio/mpeg\"/><description><![CDATA[\(description)]]></description></item>\n"
        }
        text += "</channel></rss>\n"
        try Data(text.utf8).write(to: url)
    }

    @Test func aFeedWhoseAnswerIsOverTheBusLimitComesByDescriptor() async throws {
        let bus = try PrivateBus(limits: .daemonDefaults)
        let daemon = try await RunningDaemon(bus: bus)
        let file = bus.directory.appendingPathComponent("big.xml")
        try Self.writeFeed(episodes: 8_000, to: file)
        let client = try await AlmanacClient.connect(address: bus.address)

        // The classic method cannot answer on this bus: it says so, and what to call instead.
        let bytes = try [UInt8](Data(contentsOf: file))
        let refused = try await #require(throws: BusError.self) {
            _ = try await client.connection.call(BusContract.Podcasts1.inspectData, on: BusContract.serviceName, path: BusContract.documentPath(.podcasts),
                                                 (bytes, ""), timeout: .seconds(120))
        }
        #expect(refused.name == .limitsExceeded)
        #expect(refused.message.contains("33554432 bytes (32.0 MiB)") && refused.message.contains("InspectFile"), "\(refused.message)")

        // By descriptor, both ways: the whole feed.
        let handle = try FileHandle(forReadingFrom: file)
        let feed = try await client.inspect(file: UnixFD(duplicating: handle.fileDescriptor), baseURL: "")
        try handle.close()
        guard case .array(_, let episodes)? = feed.stringKeyedEntries?["episodes"]?.unwrapped else {
            Issue.record("no episodes in \(String(describing: feed).prefix(200))")
            return
        }
        #expect(episodes.count == 8_000)

        // The CLI parses a file itself, whatever its size.
        let human = try await almanac(["podcasts", "inspect", file.path, "--episodes", "1"], bus: bus, timeout: 120)
        #expect(human.status == 0, "\(human.errorOutput)")
        #expect(human.output.hasPrefix("Huge"), "\(human.output.prefix(200))")
        #expect(human.output.contains("Episode 8000"))
        await client.connection.close()
        // Still on the bus: it still owns its name.
        let owner = try await Tool.runDetached("busctl", ["--address=\(bus.address)", "status", BusContract.serviceName.rawValue])
        #expect(owner.status == 0, "\(owner.errorOutput)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    @Test func aHundredMegabyteFeedIsRefusedClearlyAndTheDaemonServesOn() async throws {
        let bus = try PrivateBus(limits: .daemonDefaults)
        let daemon = try await RunningDaemon(bus: bus)
        let file = bus.directory.appendingPathComponent("huge.xml")
        try Self.writeFeed(episodes: 46_000, to: file)
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0 > 100_000_000)

        // A debug daemon takes seconds to read and parse it, on a shared machine maybe a minute.
        let client = try await AlmanacClient.connect(address: bus.address)
        let handle = try FileHandle(forReadingFrom: file)
        let inspecting = Task { try await client.inspect(file: UnixFD(duplicating: handle.fileDescriptor), baseURL: "") }
        // While the daemon reads and parses it, another client is served.
        let status = try await almanac(["status"], bus: bus)
        #expect(status.status == 0 && status.output.contains("is running"), "\(status.errorOutput)")
        // Parsed, its answer would be larger than any D-Bus message (an array over 64 MiB):
        // refused, with the reason, and nothing lost.
        let refused = await #expect(throws: BusError.self) { _ = try await inspecting.value }
        #expect(refused?.name == .limitsExceeded, "\(String(describing: refused))")
        #expect(refused?.message.contains("larger than one D-Bus message may be even through a descriptor") == true, "\(String(describing: refused))")
        try handle.close()
        await client.connection.close()
        // The CLI parses the file itself: no bus limit applies to it.
        let cli = try await almanac(["podcasts", "inspect", file.path, "--json"], bus: bus, timeout: 200)
        #expect(cli.status == 0, "\(cli.errorOutput)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(cli.output.utf8)) as? [String: Any])
        #expect((parsed["episodes"] as? [Any])?.count == 46_000)

        let after = try await almanac(["podcasts", "list"], bus: bus)
        #expect(after.status == 0, "\(after.errorOutput)")
        let owner = try await Tool.runDetached("busctl", ["--address=\(bus.address)", "status", BusContract.serviceName.rawValue])
        #expect(owner.status == 0, "\(owner.errorOutput)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
