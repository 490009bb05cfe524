import AlmanacModels
import Foundation
import Locking
import TestHarness
import Testing

/// Playing on through the real binaries and a real mpv with mpv-mpris: two episodes queued,
/// the first played in mpv as a user starts it (`mpv URL`: no `--idle`, so mpv quits at the
/// end of its file) and seeked a few seconds before its end, past its played mark. With
/// `continuous` on (the default) mpv is told to open the second, which it plays from where
/// the second was left; off, nothing is opened and mpv ends with the first. Played on to its
/// mark rather than seeked there, the first is heard to within two seconds of its end first.
@Suite(.onTestThreads, .timeLimit(.hang), .enabled(if: MPV.isInstalled, "mpv and mpv-mpris are not installed (scripts/install-deps.sh installs them)"))
struct PlayingOnTests {
    let feed: AudioFeed
    let bus: PrivateBus

    init() throws {
        feed = try AudioFeed()
        bus = try PrivateBus()
    }

    /// Publishes "First" and "Second", silent WAVs of `seconds` (5 minutes) the fixture server
    /// serves (with ranges), and returns their enclosure URLs.
    func publishTwo(seconds: Int = 300) throws -> (first: String, second: String) {
        try SilentWAV.write(seconds: seconds, to: feed.folder.appendingPathComponent("first.wav"))
        try SilentWAV.write(seconds: seconds, to: feed.folder.appendingPathComponent("second.wav"))
        let (first, second) = (feed.base + "/media/first.wav", feed.base + "/media/second.wav")
        let bytes = 44 + 8_000 * seconds
        let xml = """
            <?xml version="1.0"?><rss version="2.0"><channel><title>The Long Show</title>
            <item><title>First</title><guid>first</guid><pubDate>Sun, 01 Nov 2026 06:00:00 GMT</pubDate>
            <enclosure url="\(first)" type="audio/wav" length="\(bytes)"/></item>
            <item><title>Second</title><guid>second</guid><pubDate>Mon, 02 Nov 2026 06:00:00 GMT</pubDate>
            <enclosure url="\(second)" type="audio/wav" length="\(bytes)"/></item>
            </channel></rss>
            """
        try xml.write(to: feed.folder.appendingPathComponent("show.xml"), atomically: true, encoding: .utf8)
        return (first, second)
    }

    /// Subscribes, queues First then Second, and keeps Second's position at `secondFrom` (1:00).
    func queueBoth(secondFrom: Int = 60) async throws -> (podcast: String, first: String, second: String) {
        let (podcast, episodes) = try await feed.subscribe(on: bus)
        let (first, second) = (try #require(episodes["First"]), try #require(episodes["Second"]))
        #expect(try await almanac(["queue", "add", first, second], bus: bus).status == 0)
        #expect(try await almanac(["episode", "position", second, "\(secondFrom)"], bus: bus).status == 0)
        return (podcast, first, second)
    }

    /// Waits until mpv plays `second` (the second episode's URL) from `position` on; `watching`
    /// sees each answer on the way. A failure carries the daemon's log (why it did not play on).
    func waitForTheSecond(_ mpv: MPV, _ second: String, from position: Double, _ daemon: RunningDaemon,
                          watching: @escaping @Sendable ((url: String, trackID: String, position: Double)) -> Void = { _ in }) async throws {
        do {
            try await mpv.waitUntil("playing the second episode from \(Int(position)) s") { mpv in
                let track = try await mpv.track
                watching(track)
                return track.url == second && track.position >= position
            }
        } catch {
            Issue.record("\(error); almanacd's log:\n\(daemon.log.suffix(4_000))")
            throw error
        }
    }

    /// Moves mpv to 4:52 of `url`, 8 s before its end and past its played mark (95%: 4:45).
    /// mpv-mpris ignores `SetPosition` while the file opens, so it is told again until it is
    /// there — but only while mpv is still before the mark on that track (track, id and
    /// position read in one answer), so that it never moves the episode played on to.
    func seekNearTheEnd(_ mpv: MPV, of url: String) async throws {
        try await mpv.waitUntil("at 4:52 of the first episode, or past it") { mpv in
            let track = try await mpv.track
            guard track.url == url else { return true }
            if track.position < 280 { try await mpv.seek(track: track.trackID, to: 292) }
            return track.position >= 280
        }
    }

    /// Moves mpv to 0:08 of `url`, before its played mark, from where it plays on by itself
    /// (a seek that lands before the mark is no skip), as `seekNearTheEnd` does.
    func seekBeforeTheMark(_ mpv: MPV, of url: String) async throws {
        try await mpv.waitUntil("at 0:08 of the first episode, or past it") { mpv in
            let track = try await mpv.track
            guard track.url == url else { return true }
            if track.position < 7 { try await mpv.seek(track: track.trackID, to: 8) }
            return track.position >= 7
        }
    }

    /// Where the daemon's journal says mpv was in the episode it played on from (`at=`), just
    /// before it was told `OpenUri`; -1 when it did not play on.
    func playedOnAt(_ daemon: RunningDaemon) -> (at: Double, line: String) {
        let line = daemon.log.split(separator: "\n").first { $0.contains("playing on to the next episode in the queue") }.map(String.init) ?? ""
        return (line.split(separator: " ").first { $0.hasPrefix("at=") }.flatMap { Double($0.dropFirst(3)) } ?? -1, line)
    }

    @Test func aPlayedEpisodeGivesWayToTheNextInTheQueueFromItsSavedPosition() async throws {
        let audio = try publishTwo()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { _ = daemon.stop() }
        _ = try await queueBoth()
        #expect(try await almanac(["settings", "get", "continuous"], bus: bus).output == "on\n")

        let mpv = try await MPV(bus: bus, playing: audio.first, idle: false)
        try await mpv.waitUntil("playing the first episode") { try await $0.isPlaying(audio.first) }
        try await seekNearTheEnd(mpv, of: audio.first)
        try await waitForTheSecond(mpv, audio.second, from: 60, daemon)
        #expect(try await mpv.status == "Playing")
        // The first counted as played and left the queue.
        #expect(try await almanac(["queue", "--format", "{{title}}"], bus: bus).output == "Second\n")
        let played = try await almanac(["episodes", "--all", "--format", "{{title}}|{{played}}"], bus: bus).output
        #expect(played.contains("First|played") && played.contains("Second|\n"), "\(played)")
        await mpv.stop()
    }

    /// Played on by itself past its played mark (`played-at 50%`: 0:15 of a 30 s episode), the
    /// first counts as played there and leaves the queue, yet mpv stays on it until it is
    /// within two seconds of its end (`PlayerSteering.playOnMargin`); only then is it told to
    /// open the second. How far before the end mpv was is read twice: the daemon's journal
    /// (the position it asked mpv for just before `OpenUri`) and the last position seen of
    /// the first here, polling mpv until its track changes.
    @Test func playedOnByItselfTheEpisodeIsHeardToNearItsEndBeforeTheNext() async throws {
        let length = 30.0
        let audio = try publishTwo(seconds: Int(length))
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { _ = daemon.stop() }
        _ = try await queueBoth(secondFrom: 5)
        #expect(try await almanac(["settings", "set", "played-at", "50%"], bus: bus).status == 0)

        let mpv = try await MPV(bus: bus, playing: audio.first, idle: false)
        try await mpv.waitUntil("playing the first episode") { try await $0.isPlaying(audio.first) }
        try await seekBeforeTheMark(mpv, of: audio.first)
        // Played at the mark (0:15): it leaves the queue, with some 13 s of it still to play.
        #expect(try await eventually { try await almanac(["queue", "--format", "{{title}}"], bus: bus).output == "Second\n" }, "the first left the queue")
        let lastOnFirst = Locked<Double>(-1)
        try await waitForTheSecond(mpv, audio.second, from: 5, daemon) { track in
            if track.url == audio.first { lastOnFirst.withLock { $0 = max($0, track.position) } }
        }
        #expect(try await mpv.status == "Playing")
        let seen = lastOnFirst.withLock { $0 }
        let (told, line) = playedOnAt(daemon)
        print("playing on: the daemon told mpv \(length - told) s before the end; mpv was last seen on the first \(length - seen) s before it")
        // Within the margin (2 s, less the slack of the estimate) by the daemon's reading, and
        // well past the mark by the test's own (which may lag by a poll on a busy machine).
        #expect(told >= length - 2.5, "\(line)")
        #expect(seen >= length - 6, "last seen at \(seen) s of \(length)")
        let played = try await almanac(["episodes", "--all", "--format", "{{title}}|{{played}}"], bus: bus).output
        #expect(played.contains("First|played"), "\(played)")
        await mpv.stop()
    }

    /// With `skip-outro 10s` the outro (the last 10 s of a 30 s episode) counts as played and
    /// is skipped: mpv, playing on by itself, is told to open the second at its start, 0:20,
    /// not near the end.
    @Test func playedOnByItselfToTheOutroThePlayerSkipsIt() async throws {
        let audio = try publishTwo(seconds: 30)
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { _ = daemon.stop() }
        let (podcast, _, _) = try await queueBoth(secondFrom: 5)
        #expect(try await almanac(["podcasts", "settings", podcast, "skip-outro", "10s"], bus: bus).status == 0)

        let mpv = try await MPV(bus: bus, playing: audio.first, idle: false)
        try await mpv.waitUntil("playing the first episode") { try await $0.isPlaying(audio.first) }
        try await seekBeforeTheMark(mpv, of: audio.first)
        try await waitForTheSecond(mpv, audio.second, from: 5, daemon)
        let (told, line) = playedOnAt(daemon)
        // At the outro's start (less the estimate's slack), and not waiting for the end (28 s).
        #expect(told >= 19.7 && told < 27, "\(line)")
        #expect(try await almanac(["queue", "--format", "{{title}}"], bus: bus).output == "Second\n")
        await mpv.stop()
    }

    /// A sleep timer to the end of the episode while the first plays on by itself past its
    /// mark (`played-at 50%`): the timer and playing on both wait for the end; the timer wins
    /// (the user means to stop there), so mpv pauses on the first and nothing is opened.
    @Test func aSleepTimerToTheEndKeepsAPlayerThatPlaysOnByItself() async throws {
        let audio = try publishTwo(seconds: 30)
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { _ = daemon.stop() }
        _ = try await queueBoth(secondFrom: 5)
        #expect(try await almanac(["settings", "set", "played-at", "50%"], bus: bus).status == 0)
        let mpv = try await MPV(bus: bus, playing: audio.first, idle: false)
        try await mpv.waitUntil("playing the first episode") { try await $0.isPlaying(audio.first) }
        try await seekBeforeTheMark(mpv, of: audio.first)
        _ = try await eventually(every: .milliseconds(100)) { try await almanac(["sleep", "--end-of-episode"], bus: bus).status == 0 }
        try await mpv.waitUntil("paused just before the end of the first") { mpv in
            let (status, track) = (try await mpv.status, try await mpv.track)
            return status == "Paused" && track.url == audio.first && track.position >= 27
        }
        #expect(try await almanac(["queue", "--format", "{{title}}"], bus: bus).output == "Second\n")
        #expect(playedOnAt(daemon).at == -1, "\(playedOnAt(daemon).line)")
        await mpv.stop()
    }

    /// The next episode downloaded: mpv is told to open the file (mpv-mpris does not list
    /// `file` among its URI schemes, yet opens it), from its saved position.
    @Test func aDownloadedNextEpisodeIsOpenedFromItsFile() async throws {
        let audio = try publishTwo()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { _ = daemon.stop() }
        let (_, _, second) = try await queueBoth()
        let download = try await almanac(["episode", "download", second], bus: bus)
        #expect(download.status == 0, "\(download.errorOutput)")

        let mpv = try await MPV(bus: bus, playing: audio.first, idle: false)
        try await mpv.waitUntil("playing the first episode") { try await $0.isPlaying(audio.first) }
        try await seekNearTheEnd(mpv, of: audio.first)
        try await mpv.waitUntil("playing the second episode's download from 1:00") { mpv in
            let track = try await mpv.track
            return track.url.hasPrefix("file:///") && track.url.hasSuffix(".wav") && track.position >= 60
        }
        #expect(try await almanac(["queue", "--format", "{{title}}"], bus: bus).output == "Second\n")
        await mpv.stop()
    }

    /// A sleep timer to the end of the episode: the user means to stop there, so the first
    /// plays on to two seconds before its end and pauses, and nothing is opened.
    @Test func aSleepTimerToTheEndOfTheEpisodeKeepsThePlayerOnIt() async throws {
        let audio = try publishTwo()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { _ = daemon.stop() }
        _ = try await queueBoth()
        let mpv = try await MPV(bus: bus, playing: audio.first, idle: false)
        try await mpv.waitUntil("playing the first episode") { try await $0.isPlaying(audio.first) }
        // The daemon hears of mpv a moment after it is on the bus.
        _ = try await eventually(every: .milliseconds(100)) { try await almanac(["sleep", "--end-of-episode"], bus: bus).status == 0 }
        try await seekNearTheEnd(mpv, of: audio.first)
        try await mpv.waitUntil("paused just before the end of the first") { mpv in
            let (status, track) = (try await mpv.status, try await mpv.track)
            return status == "Paused" && track.url == audio.first && track.position >= 297
        }
        await mpv.stop()
    }

    @Test func withContinuousOffThePlayerEndsWithItsEpisode() async throws {
        let audio = try publishTwo()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { _ = daemon.stop() }
        _ = try await queueBoth()
        #expect(try await almanac(["settings", "set", "continuous", "off"], bus: bus).status == 0)
        #expect(try await almanac(["settings", "get", "continuous"], bus: bus).output == "off\n")
        let refused = try await almanac(["settings", "set", "continuous", "maybe"], bus: bus)
        #expect(refused.status == 64 && refused.errorOutput.contains("'continuous' is on or off"), "\(refused.errorOutput)")

        let mpv = try await MPV(bus: bus, playing: audio.first, idle: false)
        try await mpv.waitUntil("playing the first episode") { try await $0.isPlaying(audio.first) }
        try await seekNearTheEnd(mpv, of: audio.first)
        // mpv quits at the end of the first: had it been told to open the second (5 minutes),
        // it would still be playing it.
        #expect(await eventually(every: .milliseconds(100)) { await !mpv.isRunning }, "mpv still runs")
        #expect(try await eventually { try await almanac(["queue", "--format", "{{title}}"], bus: bus).output == "Second\n" }, "the first left the queue")
        await mpv.stop()
    }
}
