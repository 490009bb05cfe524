import DBus
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// Desktop notifications of new episodes, against a notification server the test runs on
/// the private bus: off until asked for, one notification per refresh naming the feed and
/// the count, each replacing the last, and a "Download" action when the server has actions.
@Suite(.onTestThreads, .timeLimit(.hang)) struct NotificationTests {
    let feed: AudioFeed
    let bus: PrivateBus

    init() throws {
        feed = try AudioFeed()
        bus = try PrivateBus()
    }

    func items(_ count: Int) -> [(title: String, enclosure: String)] {
        (0..<count).map { ("Episode \($0)", "/audio/e\($0)?size=2000") }
    }

    @Test func newEpisodesAreAnnouncedWhenAskedAndCanBeDownloadedFromTheNotification() async throws {
        let notifications = try await NotificationServer(address: bus.address, capabilities: ["body", "actions"])
        try feed.publish(items(2))
        let daemon = try await RunningDaemon(bus: bus, .fixtures().with("--notification-gathering", "0.2"))
        let (podcast, _) = try await feed.subscribe(on: bus)

        // Off by default: a refresh that finds an episode shows nothing.
        try feed.publish(items(3))
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        try await Task.sleep(for: .milliseconds(600))
        #expect(notifications.shown.withLock { $0 }.isEmpty)

        #expect(try await almanac(["settings", "set", "notify", "on"], bus: bus).status == 0)
        try feed.publish(items(5))
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        let first = await notifications.waitForNotifications(1)
        try #require(first.count == 1)
        #expect(first[0].summary == "2 new episodes")
        #expect(first[0].body == "The Download Show: 2 new")
        #expect(first[0].replaces == 0)
        #expect(first[0].actions == ["download", "Download", "queue", "Add to Up Next"])

        // The next refresh's notification replaces this one.
        try feed.publish(items(6))
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        let second = await notifications.waitForNotifications(2)
        try #require(second.count == 2)
        #expect(second[1].summary == "1 new episode" && second[1].replaces == first[0].id)

        // "Download" downloads the episodes that notification announced.
        try notifications.invoke("download", on: second[1].id)
        let downloaded = try await eventually(timeout: .seconds(60)) { () -> String? in
            let listed = try await almanac(["episodes", "--downloaded", "--format", "{{title}}"], bus: bus).output
            return listed.isEmpty ? nil : listed
        }
        #expect(downloaded == "Episode 5\n")
        // "Add to Up Next" queues the episodes the notification announced.
        try feed.publish(items(8))
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        let third = await notifications.waitForNotifications(3)
        try #require(third.count == 3)
        try notifications.invoke("queue", on: third[2].id)
        #expect(try await eventually { try await almanac(["queue", "--format", "{{title}}"], bus: bus).output == "Episode 7\nEpisode 6\n" })
        _ = daemon
        await notifications.connection.close()
    }

    @Test func withoutActionsOrWithoutAServerNothingBreaks() async throws {
        try feed.publish(items(1))
        let daemon = try await RunningDaemon(bus: bus, .fixtures().with("--notification-gathering", "0.1"))
        let (podcast, _) = try await feed.subscribe(on: bus)
        #expect(try await almanac(["settings", "set", "notify", "on"], bus: bus).status == 0)
        // No notification server at all: the refresh still works and the daemon stays.
        try feed.publish(items(2))
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        try await Task.sleep(for: .milliseconds(500))
        #expect(!daemon.process.hasExited)

        let notifications = try await NotificationServer(address: bus.address, capabilities: ["body", "body-markup"])
        try feed.publish(items(3))
        #expect(try await almanac(["podcasts", "rename", podcast, "Q&A <Live>"], bus: bus).status == 0)
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        let shown = await notifications.waitForNotifications(1)
        try #require(shown.count == 1)
        #expect(shown[0].actions.isEmpty)
        #expect(shown[0].body == "Q&amp;A &lt;Live&gt;: 1 new")
        await notifications.connection.close()
    }
}
