import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Auto-download and cleanup through the real binaries on a private bus, with the local
/// feed server's /audio endpoint and a fake MPRIS player: new episodes downloaded by
/// themselves, keep N, delete played after a time (given in seconds over the bus), kept
/// episodes and playing files spared, and the free-space guard.
@Suite(.onTestThreads, .timeLimit(.hang)) struct CleanupTests {
    let feed: AudioFeed
    let bus: PrivateBus

    init() throws {
        feed = try AudioFeed()
        bus = try PrivateBus()
    }

    var folder: URL { bus.directory.appendingPathComponent("data/The Download Show") }
    func path(_ title: String) -> String { folder.appendingPathComponent("\(title).mp3").path }
    func exists(_ title: String) -> Bool { FileManager.default.fileExists(atPath: path(title)) }

    func items(_ titles: [String]) -> [(title: String, enclosure: String)] {
        titles.map { ($0, "/audio/\($0.lowercased())?size=3000") }
    }

    /// The titles of the downloaded episodes, as the library says.
    func downloaded() async throws -> Set<String> {
        Set(try await almanac(["episodes", "--downloaded", "--format", "{{title}}"], bus: bus).output.split(separator: "\n").map(String.init))
    }

    func download(_ ids: [String]) async throws {
        let result = try await almanac(["episode", "download"] + ids, bus: bus)
        try #require(result.status == 0, "\(result.output) \(result.errorOutput)")
    }

    @Test func newEpisodesAreDownloadedByThemselvesAfterARefreshNewestFirstUpToKeep() async throws {
        try feed.publish(items(["One"]))
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        #expect(try await almanac(["podcasts", "settings", podcast, "auto-download", "on"], bus: bus).status == 0)
        #expect(try await almanac(["podcasts", "settings", podcast, "keep", "2"], bus: bus).status == 0)

        try feed.publish(items(["One", "Two", "Three", "Four"]))
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        #expect(await eventually { exists("Four") && exists("Three") }, "\(RunningDaemon.log(on: bus).suffix(2000))")
        #expect(try await eventually { try await downloaded() == ["Four", "Three"] })
        // Two is new as well, but keep says two; One came with the subscription, not a refresh.
        let jobs = try await almanac(["downloads", "--json"], bus: bus).output.split(separator: "\n")
        #expect(jobs.count == 2 && jobs.allSatisfy { $0.contains("\"state\":\"completed\"") }, "\(jobs)")
        #expect(!exists("Two") && !exists("One"))
        // The line says which episode and job; a download that does not wait has no `why` (it was empty).
        let said = daemon.logLines("downloading a new episode by itself", with: ["subsystem": "almanac.downloads"])
        #expect(!said.isEmpty && said.allSatisfy { $0.metadata["episode"] != nil && $0.metadata["why"] == nil && !$0.metadata.values.contains("") },
                "\(said)")
    }

    @Test func keepingTheNewestDeletesTheOldestButNeverAKeptOne() async throws {
        try feed.publish(items(["A", "B", "C", "D"]))
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, episodes) = try await feed.subscribe(on: bus)
        try await download(["A", "B", "C", "D"].compactMap { episodes[$0] })
        #expect(try await almanac(["episode", "keep", try #require(episodes["A"])], bus: bus).status == 0)
        #expect(try await almanac(["podcasts", "settings", podcast, "keep", "2"], bus: bus).status == 0)
        // D and C are the newest two; A is kept and does not count; B goes.
        #expect(await eventually { !exists("B") })
        #expect(exists("A") && exists("C") && exists("D"))
        #expect(try await eventually { try await downloaded() == ["A", "C", "D"] })
        #expect(!daemon.logLines("deleted a download", with: ["file": path("B"), "reason": "only the newest 2 downloads of its podcast are kept",
                                                             "subsystem": "almanac.downloads"]).isEmpty, "\(daemon.log.suffix(2000))")
        // Let go, A is the oldest beyond two.
        #expect(try await almanac(["episode", "unkeep", try #require(episodes["A"])], bus: bus).status == 0)
        #expect(await eventually { !exists("A") })
        #expect(exists("C") && exists("D"))
    }

    @Test func playedDownloadsGoWhenTheirTimeIsUpUnlessKeptOrBeingPlayed() async throws {
        try feed.publish(items(["Heard", "Treasured", "Playing"]))
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, episodes) = try await feed.subscribe(on: bus)
        let ids = try ["Heard", "Treasured", "Playing"].map { try #require(episodes[$0]) }
        try await download(ids)
        #expect(try await almanac(["episode", "keep", ids[1]], bus: bus).status == 0)

        // A media player has one of them open (by its file:// URL).
        let player = try await MPRISPlayer(address: bus.address)
        try await player.waitForPositionRead(after: 0)
        let reads = player.positionReads
        try await player.play(.string(URL(fileURLWithPath: path("Playing")).absoluteString), length: .int64(1_000_000_000))
        try await player.waitForPositionRead(after: reads)

        // A second after playing, from a client nobody on the team wrote (days in seconds).
        let set = try await busctlCall(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, BusContract.Podcasts1.setPodcastSettings.name,
                                       ["sa{sv}", podcast, "1", "deletePlayedAfter", "d", "1"])
        #expect(set.status == 0, "\(set.errorOutput)")
        #expect(try await almanac(["episode", "played"] + ids, bus: bus).status == 0)
        #expect(await eventually { !exists("Heard") }, "\(daemon.log.suffix(2000))")
        #expect(await eventually {
            !daemon.logLines("kept a download for now: a media player has it open",
                             with: ["file": path("Playing"), "reason": "it was played more than 1 second ago"]).isEmpty
        }, "\(daemon.log.suffix(2000))")
        #expect(exists("Treasured") && exists("Playing"))
        #expect(!daemon.logLines("deleted a download", with: ["file": path("Heard"), "reason": "it was played more than 1 second ago"]).isEmpty)

        // The player moves on to another track: the file it had open goes.
        try await player.play(.string(feed.base + "/audio/elsewhere?size=10"), length: .int64(1_000_000_000))
        #expect(await eventually { !exists("Playing") }, "\(daemon.log.suffix(2000))")
        #expect(exists("Treasured"))
        #expect(try await eventually { try await downloaded() == ["Treasured"] })
        // Let go, the kept one goes too.
        #expect(try await almanac(["episode", "unkeep", ids[1]], bus: bus).status == 0)
        #expect(await eventually { !exists("Treasured") })
        await player.connection.close()
    }

    @Test func aDownloadThatWouldFillTheDiskFailsSayingWhyAndHowToChangeIt() async throws {
        try feed.publish(items(["Big"]))
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await feed.subscribe(on: bus)
        let id = try #require(episodes["Big"])
        // More than any disk here has free.
        #expect(try await almanac(["settings", "set", "minimum-free-space", "1PiB"], bus: bus).status == 0)
        #expect(try await almanac(["settings", "get", "minimum-free-space"], bus: bus).output == "1.0 PiB\n")
        let refused = try await almanac(["episode", "download", id], bus: bus)
        #expect(refused.status == 1)
        #expect(refused.output.contains("failed") && refused.output.contains("Not enough free space: the disk at /"), "\(refused.output)")
        // Said whole on standard error: the disk, its free space, the threshold, how to change it.
        #expect(refused.errorOutput.contains("Not enough free space: the disk at /") && refused.errorOutput.contains(" free, and it has less than the 1.0 PiB Almanac keeps free"),
                "\(refused.errorOutput)")
        #expect(refused.errorOutput.contains("`almanac settings set minimum-free-space 500MiB` (0 turns the check off)"), "\(refused.errorOutput)")
        let job = try await almanac(["downloads", "--json"], bus: bus).output
        #expect(job.contains("\"state\":\"failed\"") && job.contains("Not enough free space"), "\(job)")
        #expect(!exists("Big"))
        #expect(try feed.requests().isEmpty, "nothing was fetched")
        // The threshold lowered, it downloads.
        #expect(try await almanac(["settings", "set", "minimum-free-space", "0"], bus: bus).status == 0)
        #expect(try await almanac(["episode", "download", id], bus: bus).status == 0)
        #expect(exists("Big"))
        _ = daemon
    }

    /// A size the feed did not give is learned from the server's answer: the transfer stops
    /// there and fails the same way, and nothing is left in the folder.
    @Test func aDownloadWhoseAnswerIsTooBigForTheDiskStopsWhenTheSizeIsKnown() async throws {
        // The server announces 4 GiB, sends a byte and nothing more.
        try feed.publish([("Huge", "/audio/huge?size=3000&stall=1&claim=\(4 << 30)")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await feed.subscribe(on: bus)
        let id = try #require(episodes["Huge"])
        // A threshold the disk passes now by 2 GiB, and would not with 4 GiB more on it
        // (on a disk with less than 2 GiB free, a mebibyte): the size unknown, it starts.
        var disk = statvfs()
        try #require(statvfs(bus.directory.path, &disk) == 0)
        let free = UInt64(disk.f_bavail) * UInt64(disk.f_frsize)
        let threshold = free > (2 << 30) + (1 << 20) ? free - (2 << 30) : 1 << 20
        #expect(try await almanac(["settings", "set", "minimum-free-space", "\(threshold)"], bus: bus).status == 0)
        let refused = try await almanac(["episode", "download", id], bus: bus)
        #expect(refused.status == 1)
        #expect(refused.errorOutput.contains("Not enough free space: the disk at /") && refused.errorOutput.contains("this download (4.0 GiB more) would leave less than the "),
                "\(refused.errorOutput)")
        #expect(try feed.requests().count == 1, "it was asked for")
        // The failure is answered as the transfer stops; its partial file goes just after.
        let left = { (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? ["(unreadable)"] }
        #expect(await eventually { left().isEmpty }, "\(left())")
        _ = daemon
    }
}
