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

    /// The capabilities of the server, and whether it reads the body as markup: dbusmock's own
    /// set (`body-markup`), dunst 1.9's (`body-hyperlinks`, no `body-markup`, though it parses
    /// markup), and a server of plain text.
    static let servers: [([String], Bool)] = [
        (["body", "body-markup", "actions"], true),
        (["actions", "body", "body-hyperlinks", "icon-static"], true),
        (["body", "actions"], false),
    ]

    @Test(arguments: servers) func aServersMarkupShowsEveryNoticeAsTheTextItIs(capabilities: [String], markup: Bool) async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.openMeteo()
        let feed = try AudioFeed()
        let notifications = try await DbusmockNotificationDaemon(bus: bus, capabilities: capabilities)
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

    /// dunst itself (Debian's 1.9, under Xvfb), which reads the body as markup although it
    /// lists only `body-hyperlinks`: an alert's `<a href>`, `<img>` and `&` are shown as the
    /// text they are — no link taken into its menu, no "[image]" — in what it displays.
    @Test(.enabled(if: Dunst.isInstalled, "dunst and Xvfb are not installed (scripts/install-deps.sh installs them)"))
    func dunstShowsAnAlertsMarkupAsText() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.openMeteo()
        let dunst = try await Dunst(bus: bus)
        defer { dunst.stop() }
        try server.control("alerts=on&instruction=" + (Self.instruction.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        #expect(try await almanac(["locations", "add", Self.springfield], bus: bus).status == 0)
        let shown = try await eventually { try await dunst.history().first { $0["appname"] == "Almanac" } }
        let notice = try #require(shown, "dunst showed nothing:\n\(RunningDaemon.log(on: bus).suffix(2000))")
        // `message` is the markup dunst displayed: the instruction escaped in it, so shown as written.
        let message = try #require(notice["message"])
        #expect(message.contains(#"See &lt;a href="https://example.com/plan"&gt;the plan&lt;/a&gt; &lt;img src="file:///etc/passwd"/&gt; &amp; stay there."#), "\(message)")
        #expect(!message.contains("[image]") && !message.contains("See the plan"), "\(message)")
        _ = daemon.stop()
    }
}
