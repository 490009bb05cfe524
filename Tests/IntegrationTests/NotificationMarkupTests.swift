import Foundation
import TestHarness
import Testing

/// What a source writes reaches the notification server as text: an alert's instruction with
/// `<a href>`, `<img src="file:…">` and a bare `&`, and a podcast's title with `&` and `<`,
/// both through the one escaping of almanacd's `DesktopNotifications`, by the server's
/// `body-markup` capability — against python-dbusmock's notification daemon (another
/// project's), with its capabilities and without `body-markup`.
@Suite(.onTestThreads, .timeLimit(.hang)) struct NotificationMarkupTests {
    static let springfield = "37.21533,-93.29824"
    static let instruction = #"Move inside. See <a href="https://example.com/plan">the plan</a> <img src="file:///etc/passwd"/> & stay there."#

    @Test(arguments: [true, false]) func aServersMarkupShowsEveryNoticeAsTheTextItIs(markup: Bool) async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.openMeteo()
        let feed = try AudioFeed()
        let notifications = try await DbusmockNotificationDaemon(bus: bus, capabilities: markup ? ["body", "body-markup", "actions"] : ["body", "actions"])
        defer { notifications.stop() }
        try server.control("alerts=on&instruction=" + (Self.instruction.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        try feed.publish([("Episode 0", "/audio/e0?size=100")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--notification-gathering", "0.1"))
        let (podcast, _) = try await feed.subscribe(on: bus)
        // (A feed's title loses what looks like a tag; the user's own name keeps it.)
        #expect(try await almanac(["podcasts", "rename", podcast, "Q&A <Live>"], bus: bus).status == 0)

        // A severe alert: its instruction is the body.
        #expect(try await almanac(["locations", "add", Self.springfield], bus: bus).status == 0)
        let alert = try #require(await notifications.waitForCalls("Notify").first, "no notification:\n\(RunningDaemon.log(on: bus).suffix(2000))")
        // New episodes: the podcast's title is in the body.
        #expect(try await almanac(["settings", "set", "notify", "on"], bus: bus).status == 0)
        try feed.publish([("Episode 0", "/audio/e0?size=100"), ("Episode 1", "/audio/e1?size=100")])
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        let calls = await notifications.waitForCalls("Notify", count: 2)
        let episodes = try #require(calls.dropFirst().first, "\(calls)")
        #expect(alert.contains("\"dialog-warning\"") && episodes.contains("\"audio-podcast\""), "\(calls)")

        if markup {
            #expect(alert.contains(#"See &lt;a href="https://example.com/plan"&gt;the plan&lt;/a&gt; &lt;img src="file:///etc/passwd"/&gt; &amp; stay there."#), "\(alert)")
            #expect(!alert.contains("<a ") && !alert.contains("<img") && !alert.contains(" & "), "\(alert)")
            #expect(episodes.contains("\"Q&amp;A &lt;Live&gt;: 1 new\""), "\(episodes)")
        } else {
            // A server that reads no markup shows the body as it is: it is text there already.
            #expect(alert.contains(Self.instruction), "\(alert)")
            #expect(episodes.contains("\"Q&A <Live>: 1 new\""), "\(episodes)")
        }
        // The summary is plain text by the specification, never escaped.
        #expect(episodes.contains("\"1 new episode\""), "\(episodes)")
        #expect(notifications.calls("GetCapabilities").count >= 2)
        #expect(!daemon.process.hasExited)
        _ = daemon.stop()
    }
}
