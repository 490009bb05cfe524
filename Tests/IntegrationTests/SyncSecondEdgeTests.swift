import Foundation
import TestHarness
import Testing

/// Sync at a second's edge (issue 41), through the real binaries against
/// Tests/Fixtures/gpodder_server.py: servers that stamp a change with its whole second and give
/// the changes *after* `since` (gpodder-fastapi-router, Nextcloud's app) never give one made in
/// the very second the desktop was last answered, unless the desktop asks that second again;
/// and what it is then given twice must change nothing. The fixture's
/// `/_control/subscribe?…&at=…` makes the phone's change land in that second on purpose.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SyncSecondEdgeTests {
    let feed: AudioFeed

    init() throws {
        feed = try AudioFeed()
        let items = (1...3).map { number in
            "<item><title>Episode \(number)</title><guid>ep-\(number)</guid><pubDate>Sun, 0\(number) Nov 2026 06:00:00 GMT</pubDate>"
                + "<itunes:duration>1:00:00</itunes:duration><enclosure url=\"\(feed.base)/audio/ep\(number).mp3?size=1000\" type=\"audio/mpeg\" length=\"1000\"/></item>"
        }.joined(separator: "\n")
        try "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>The Edge Show</title>\n\(items)\n</channel></rss>"
            .write(to: feed.folder.appendingPathComponent("show.xml"), atomically: true, encoding: .utf8)
    }

    /// The fixture answering as `like`: "fastapi-router", "mygpo", "opodsync", or "nextcloud" (the flavour).
    static func server(like: String) throws -> FixtureServer {
        try FixtureServer(script: SourceTree.path("Tests/Fixtures/gpodder_server.py"),
                          arguments: like == "nextcloud" ? ["--flavour", "nextcloud"] : ["--like", like])
    }

    func control(_ server: FixtureServer, _ path: String) throws -> String {
        try String(contentsOf: URL(string: server.baseURL.absoluteString + "/_control/" + path)!, encoding: .utf8)
    }

    /// What the server answered the GETs of `what` ("subscriptions" or "episodes") with, oldest
    /// first; not the Nextcloud session checks (which ask from tomorrow).
    func answers(_ server: FixtureServer, _ what: String) throws -> [String] {
        func number(_ line: Substring, _ key: String) -> Int {
            line.split(separator: " ").first { $0.hasPrefix(key + "=") }.flatMap { Int($0.dropFirst(key.count + 1)) } ?? 0
        }
        return try control(server, "answers").split(separator: "\n")
            .filter { $0.hasPrefix(what + " ") && number($0, "since") <= number($0, "timestamp") }.map(String.init)
    }

    /// A daemon on a bus of its own, logged in to `server` as `device`, its first sync done;
    /// it syncs only when asked.
    func loggedIn(_ server: FixtureServer, device: String) async throws -> RunningDaemon {
        let daemon = try await RunningDaemon(bus: PrivateBus(), DaemonPreset.fixtures().with("--sync-debounce", "3600").with("--sync-interval", "86400"))
        var environment = daemon.bus.environment
        environment["NO_COLOR"] = "1"
        let login = try await Tool.runDetached("/bin/sh", ["-c", "printf 's3cret\\n' | \"$0\" sync login \"$1\" alice --device \"$2\"", Binaries.almanac,
                                                           server.baseURL.absoluteString, device], environment: environment, timeout: 60)
        try #require(login.status == 0, "\(login.output)\(login.errorOutput)")
        try #require(await eventually(timeout: .seconds(60)) {
            let status = try? await almanac(["sync", "status", "--json"], bus: daemon.bus).output
            return status?.contains("\"lastSync\":\"") == true
        })
        return daemon
    }

    func syncNow(_ daemon: RunningDaemon) async throws -> String {
        let result = try await almanac(["sync", "now", "--json"], bus: daemon.bus)
        #expect(result.status == 0, "\(result.errorOutput)")
        return result.output
    }

    func podcastList(_ daemon: RunningDaemon) async throws -> String {
        try await almanac(["podcasts", "list", "--format", "{{feedURL}}"], bus: daemon.bus).output
    }

    func episode(_ title: String, on daemon: RunningDaemon) async throws -> [String: Any] {
        let result = try await almanac(["episodes", "--all", "--json"], bus: daemon.bus)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.errorOutput)")
        return try #require((object["episodes"] as? [[String: Any]] ?? []).first { $0["title"] as? String == title })
    }

    /// The phone subscribes in the very second of the desktop's last answer; the desktop's
    /// next `sync now` brings the podcast (it said "nothing to change" against
    /// gpodder-fastapi-router, 2 runs of 3). Then, against the servers that give it again,
    /// the same change read in the syncs after changes nothing.
    @Test(arguments: ["fastapi-router", "nextcloud", "mygpo"])
    func aSubscriptionMadeInTheSecondOfTheLastAnswerArrives(like: String) async throws {
        let server = try Self.server(like: like)
        let phone = try await loggedIn(server, device: "phone")
        let desktop = try await loggedIn(server, device: "desktop")
        _ = try await syncNow(desktop)
        // That sync asked twice (from the second it was last given, then from the one before)
        // and keeps the timestamp of the first answer: the phone's change is of its second.
        let given = try answers(server, "subscriptions").suffix(2)
        let kept = try #require(given.first.flatMap { Int($0.split(separator: "=").last ?? "") }, "\(given)")
        _ = try control(server, "subscribe?user=alice&device=phone&at=\(kept)&url=" + feed.url)

        let synced = try await syncNow(desktop)
        let asked = try answers(server, "subscriptions")
        #expect(synced.contains("\"subscribed\":[\"\(feed.url)\"]"), "\(synced); \(asked)")
        #expect(try await podcastList(desktop) == feed.url + "\n")
        #expect(asked.last?.contains("since=\(kept - 1) add=1") == true, "asked from the second before \(kept): \(asked)")

        // Given again: with the server's clock ten seconds back, the answer after the next is
        // of a second before the phone's change. (mygpo compares its own clock with the
        // change's time too, so going back hides the change there: not that server's way.)
        if like != "mygpo" {
            _ = try control(server, "clock?offset=-10")
            for _ in 0..<2 {
                let again = try await almanac(["sync", "now"], bus: desktop.bus)
                #expect(again.output == "synced with \(server.baseURL.absoluteString): nothing to change\n", "\(again.output)\(again.errorOutput)")
            }
            let again = try answers(server, "subscriptions")
            #expect(again.last?.contains("add=1") == true, "it was given again: \(again)")
            #expect(try await podcastList(desktop) == feed.url + "\n")
        }
        #expect(!desktop.process.hasExited && !phone.process.hasExited)
    }

    /// gpodder-fastapi-router lists each change after `since`: a feed the phone gave up and
    /// took again since the desktop's last answer is in both `remove` and `add`. It is still
    /// subscribed there, so it stays here (it used to be given up, and the add ignored).
    @Test func aFeedGivenUpAndSubscribedAgainSinceTheLastAnswerStays() async throws {
        let server = try Self.server(like: "fastapi-router")
        let phone = try await loggedIn(server, device: "phone")
        let desktop = try await loggedIn(server, device: "desktop")
        // A second after the desktop's last answer: not at its edge.
        _ = try control(server, "subscribe?user=alice&device=phone&at=given%2B1&url=" + feed.url)
        #expect(try await syncNow(desktop).contains("\"subscribed\":[\"\(feed.url)\"]"))

        _ = try control(server, "subscribe?user=alice&device=phone&remove=1&at=given%2B1&url=" + feed.url)
        _ = try control(server, "subscribe?user=alice&device=phone&at=given%2B1&url=" + feed.url)
        let synced = try await syncNow(desktop)
        let asked = try answers(server, "subscriptions")
        #expect(asked.last?.contains("add=1 remove=1") == true, "\(asked)")
        #expect(synced.contains("\"unsubscribed\":[]") && synced.contains("\"subscribed\":[]"), "\(synced)")
        #expect(try await podcastList(desktop) == feed.url + "\n")
        #expect(!phone.process.hasExited)
    }

    /// The desktop asks for episode actions from a minute before its last answer, so another
    /// device's action comes in two (or more) syncs. Read again it changes nothing: it does
    /// not mark played again an episode marked unplayed here since, nor counts as an update.
    @Test(arguments: ["fastapi-router", "mygpo", "opodsync"])
    func anEpisodeActionReadAgainChangesNothing(like: String) async throws {
        let server = try Self.server(like: like)
        let desktop = try await loggedIn(server, device: "desktop")
        let (_, ids) = try await feed.subscribe(on: desktop.bus)
        _ = try await syncNow(desktop)
        // The phone played Episode 3 to its end ten seconds ago. The server's clock then stands
        // still at now: each sync below is answered as of now and asks again from a minute
        // before it, so the phone's action is inside that minute however slow the syncs are
        // (opodsync and mygpo filter by the action's own time, and answer with their clock).
        let now = Date()
        let played = now.addingTimeInterval(-10)
        let stamp = ISO8601DateFormatter().string(from: played).replacingOccurrences(of: "Z", with: "")
        let action = "[{\"podcast\": \"\(feed.url)\", \"episode\": \"\(feed.base)/audio/ep3.mp3?size=1000\", \"action\": \"play\", "
            + "\"timestamp\": \"\(stamp)\", \"started\": 0, \"position\": 3600, \"total\": 3600, \"device\": \"phone\"}]"
        let post = "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], data=sys.argv[2].encode()).read()"
        #expect(try await Tool.runDetached("python3", ["-c", post, server.baseURL.absoluteString + "/_control/action", action]).status == 0)
        _ = try control(server, "clock?at=\(Int(now.timeIntervalSince1970))")

        #expect(try await syncNow(desktop).contains("\"episodesUpdated\":1"))
        #expect(try await episode("Episode 3", on: desktop)["played"] as? Bool == true)
        // Marked unplayed here, after the phone's play: newer, so it stays, though the next
        // syncs read the phone's action again.
        #expect(try await almanac(["episode", "unplayed", try #require(ids["Episode 3"])], bus: desktop.bus).status == 0)
        let second = try await syncNow(desktop)
        #expect(second.contains("\"episodesUpdated\":0") && second.contains("\"sent\":1"), "\(second)")
        let third = try await almanac(["sync", "now"], bus: desktop.bus)
        #expect(third.output == "synced with \(server.baseURL.absoluteString): nothing to change\n", "\(third.output)")
        let read = try answers(server, "episodes").suffix(2)
        #expect(read.count == 2 && read.allSatisfy { !$0.contains("actions=0 ") }, "the phone's action came again each time: \(read)")
        let episode = try await episode("Episode 3", on: desktop)
        #expect(episode["played"] as? Bool == false && episode["position"] as? Double == 0, "\(episode)")
        let state = try control(server, "state")
        #expect(state.contains("\"action\": \"new\""), "the desktop's unplayed mark went up: \(state)")
    }
}
