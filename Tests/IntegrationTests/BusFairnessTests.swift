import Foundation
import TestHarness
import Testing

/// Another client on the bus (security.md, "Other clients on the session bus"): what one
/// client sends never keeps the daemon from answering the others. The clients are jeepney
/// (`Tests/Fixtures/busy_client.py`), which writes its calls in one go so that they reach the
/// daemon behind each other exactly as written; the tests look at the order of answers,
/// never at a clock.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BusFairnessTests {
    static let client = SourceTree.path("Tests/Fixtures/busy_client.py")

    /// A feed of `items` episodes with long show notes: several MiB that take a while to parse.
    static func largeFeed(items: Int) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-heavy-\(UUID().uuidString.prefix(8)).xml")
        let notes = String(repeating: "Show notes with <b>markup</b> &amp; entities. ", count: 20)
        let body = (0..<items).map {
            "<item><title>Episode \($0)</title><guid>g\($0)</guid><pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate>"
                + "<description><![CDATA[\(notes)]]></description><enclosure url=\"https://example.org/\($0).mp3\" type=\"audio/mpeg\" length=\"1000\"/></item>"
        }.joined()
        try Data(("<rss version=\"2.0\"><channel><title>Heavy</title>" + body + "</channel></rss>").utf8).write(to: file)
        return file
    }

    /// `InspectData` of a large feed runs off the connection's thread: a `Peer.Ping` and a
    /// `Properties.Get` sent right behind it are answered before it is.
    @Test func callsBehindAHeavyOneAreAnsweredBeforeIt() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        defer { withExtendedLifetime(daemon) {} }
        let feed = try Self.largeFeed(items: 8_000)
        defer { try? FileManager.default.removeItem(at: feed) }
        let result = try await Tool.runDetached("/usr/bin/python3", [Self.client, bus.address, "heavy", feed.path], timeout: 240)
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(result.output == "Ping Get InspectData\n", "the order the answers came in: \(result.output)")
    }

    /// One client with thousands of calls in flight, and behind them a `Submit`: another
    /// client's `Properties.Get` sent after all of them reached the daemon is answered in its
    /// own turn, before the flood is through (it still reads the revision before the Submit),
    /// and the flood is served to the end afterwards.
    @Test(arguments: ["GetAll", "GetState"])
    func aFloodFromOneClientDoesNotHoldUpAnother(method: String) async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        defer { withExtendedLifetime(daemon) {} }
        let result = try await Tool.runDetached("/usr/bin/python3", [Self.client, bus.address, "flood", "5000", method], timeout: 240)
        #expect(result.status == 0, "\(result.errorOutput)")
        let values = Dictionary(uniqueKeysWithValues: result.output.split(whereSeparator: \.isWhitespace).compactMap { pair -> (String, Int)? in
            let parts = pair.split(separator: "=")
            guard parts.count == 2, let value = Int(parts[1]) else { return nil }
            return (String(parts[0]), value)
        })
        let before = try #require(values["before"], "\(result.output)")
        #expect(values["during"] == before, "the other client waited for the flood: \(result.output)")
        #expect(values["after"] == before + 1, "\(result.output)")
    }

    /// The daemon serves at most `ViewAllowance.daemonLimit` (4,096) views over every client:
    /// 64 clients with 64 views each fill it, a 65th client is refused with `LimitsExceeded`
    /// saying why, and once a client leaves its places are free again.
    @Test func viewsAreCappedOverEveryClient() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        defer { withExtendedLifetime(daemon) {} }
        let script = #"""
import sys, time
from jeepney import DBusAddress, HeaderFields, MessageType, new_method_call
from jeepney.io.blocking import open_dbus_connection
address = sys.argv[1]
podcasts = DBusAddress("/org/almanac/Almanac1/podcasts", bus_name="org.almanac.Almanac1", interface="org.almanac.Document1")
def add_views(connection, count):
    serials = set()
    data = []
    for _ in range(count):
        serial = next(connection.outgoing_serial)
        serials.add(serial)
        data.append(new_method_call(podcasts, "AddView", "a{sv}", ({},)).serialise(serial=serial))
    connection.sock.sendall(b"".join(data))
    added, errors = 0, []
    while serials:
        message = connection.receive(timeout=120)
        reply_to = message.header.fields.get(HeaderFields.reply_serial)
        if reply_to not in serials:
            continue
        serials.discard(reply_to)
        if message.header.message_type == MessageType.error:
            errors.append("%s: %s" % (message.header.fields.get(HeaderFields.error_name), message.body[0]))
        else:
            added += 1
    return added, errors
clients = [open_dbus_connection(bus=address) for _ in range(64)]
print("added", sum(add_views(c, 64)[0] for c in clients))
late = open_dbus_connection(bus=address)
added, errors = add_views(late, 1)
print("late", added, errors[0] if errors else "")
clients.pop().close()
deadline = time.monotonic() + 120
while time.monotonic() < deadline:
    added, errors = add_views(late, 1)
    if added:
        break
    time.sleep(0.02)
print("after one left", added)
"""#
        let result = try await Tool.runDetached("/usr/bin/python3", ["-c", script, bus.address], timeout: 240)
        #expect(result.status == 0, "\(result.errorOutput)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "added 4096", "\(result.output)")
        #expect(lines.count > 1 && lines[1].hasPrefix("late 0 org.freedesktop.DBus.Error.LimitsExceeded: almanacd already serves 4096 views"),
                "\(result.output)")
        #expect(lines.last == "after one left 1", "\(result.output)")
    }
}
