import AlmanacBus
import AlmanacCore
import AlmanacDemo
import AlmanacModels
import AlmanacServices
import AlmanacWire
import DBus
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// One write path per document, over a real SQLite file and a private bus: every change goes
/// to the document's owner, a burst of them is one transaction, and no call of the archive
/// (write or read) runs on the bus connection's thread.
@Suite(.onTestThreads, .timeLimit(.hang)) struct OwnerWritePathTests {
    static let podcast = Podcast(id: "show", title: "The Show", author: "", feedURL: "https://example.com/show.xml")
    static let episodes = (1...40).map { n in
        Episode(id: "show-\(n)", podcastID: "show", title: "Episode \(n)", published: Date(timeIntervalSince1970: Double(n) * 86_400), duration: 600)
    }

    /// Runs `body` with an in-process server whose documents keep their state in a SQLite
    /// file of their own (behind `ThreadRecordingArchive`), subscribed to `podcast`. With
    /// `downloading`, a download manager keeps its jobs in the same file (and downloads
    /// nothing: it is not run, so its jobs stay queued).
    func withStore(downloading: Bool = false, _ body: (InProcessAlmanac, ThreadRecordingArchive) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-owner-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = ThreadRecordingArchive(try StateStore(folder: folder, logger: .discarding))
        let downloads = { (podcasts: PodcastsDocument) in
            try DownloadManager(podcasts: podcasts, downloader: DemoEpisodeDownloader(), root: folder.appendingPathComponent("downloads").path, archive: archive, logger: .discarding)
        }
        let almanac = try await InProcessAlmanac(weatherStore: archive, podcastStore: archive, downloads: downloading ? downloads : nil)
        archive.connection.withLock { $0 = almanac.server.connection }
        archive.weather.withLock { $0 = almanac.weather }
        do {
            try almanac.podcasts.subscribe(Self.podcast, episodes: Self.episodes)
            try await body(almanac, archive)
            await almanac.stop()
        } catch {
            await almanac.stop()
            throw error
        }
    }

    func call(_ client: AlmanacClient, _ path: ObjectPath, _ interface: InterfaceName, _ method: MemberName,
              _ arguments: (inout MessageWriter) throws -> Void = { _ in }) async throws {
        _ = try await client.connection.call(BusContract.serviceName, path: path, interface: interface, method: method, body: arguments)
    }

    @Test func noCallOfTheArchiveRunsOnTheConnectionsThread() async throws {
        try await withStore { almanac, archive in
            let client = try await almanac.connect()
            let weather = BusContract.documentPath(.weather)
            // Document1 and Weather1 of the weather document.
            _ = try await client.submit(.weather, ["units": .string("imperial")])
            try await client.addLocation("Oslo")
            try await client.removeLocation("Oslo")
            let place = try await client.addView(.weather, options: ["location": .string("Berlin")])
            try await call(client, place, BusContract.viewInterface, BusContract.View1.setOptions.name) { try $0.write(["location": Value.string("Paris")]) }
            try await call(client, weather, BusContract.documentInterface, BusContract.Document1.refresh.name)
            try await call(client, place, BusContract.viewInterface, BusContract.View1.remove.name)
            // Document1, Podcasts1 and View1 of the podcasts document.
            _ = try await client.submit(.podcasts, ["episode": .string("show-1"), "played": .boolean(true)])
            _ = try await client.submit(.podcasts, ["episode": .string("show-2"), "kept": .boolean(true)])
            _ = try await client.submit(.podcasts, ["playedAt": .double(0.8)])
            _ = try await client.submit(.podcasts, ["allPlayed": .boolean(true), "podcast": .string("show")])
            try await client.setPodcastPreferences("show", ["keep": .uint32(5)])
            try await client.rename("show", to: "Another Show")
            _ = try await client.episode("show-3")
            _ = try await client.episodeRecord("show-3")
            _ = try await client.listEpisodes(podcast: "show", query: [:])
            let list = try await client.addView(.podcasts, options: ["podcast": .string("show")])
            _ = try await client.loadMore(list)
            _ = try await client.refreshList(list)
            try await client.removeView(.podcasts, list)
            await #expect(throws: BusError.self) { _ = try await client.download("show-3") }
            // The demo provider has no such feed: the read fails, and its backoff is kept.
            await #expect(throws: BusError.self) { try await client.refreshPodcast("show", timeout: .seconds(60)) }
            try await client.unsubscribe("show")
            // What the calls wrote is in the file, and none of it was written on the connection's thread.
            let calls = archive.calls.withLock { $0 }
            for written in ["saveSettings(weather)", "savePlayState", "saveKept", "saveSettings(podcasts)", "markAllPlayed", "savePreferences", "save", "removePodcast", "page", "details", "saveBackoff"] {
                #expect(calls.contains(written), "\(written) was not called")
            }
            #expect(archive.onConnectionThread.withLock { $0 } == [])
        }
    }

    /// The download archive too: `Download` queues a job in it and `Download1.Cancel` writes
    /// the cancelled job there, neither on the connection's thread.
    @Test func noCallOfTheDownloadArchiveRunsOnTheConnectionsThread() async throws {
        try await withStore(downloading: true) { almanac, archive in
            let episode = Episode(id: "audio-1", podcastID: "audio", title: "With audio", published: Date(timeIntervalSince1970: 86_400), duration: 600,
                                  audioURL: "https://example.com/audio-1.mp3")
            try almanac.podcasts.subscribe(Podcast(id: "audio", title: "Audio", author: "", feedURL: "https://example.com/audio.xml"), episodes: [episode])
            let client = try await almanac.connect()
            let job = try await client.download("audio-1")
            try await client.cancelDownload(job)
            // Queued, then cancelled: both written to the file, neither on the connection's thread.
            #expect(archive.calls.withLock { $0 }.filter { $0 == "saveDownloadJob" }.count == 2)
            #expect(try archive.store.downloadJobs().map(\.state) == [.cancelled])
            #expect(archive.onConnectionThread.withLock { $0 } == [])
        }
    }

    /// Every call of the weather document's archive runs on its owner's queue, whatever asks
    /// for it: a `Submit` (the settings), a new view (its place's kept reading, before the
    /// fetch), a fetch's report (the reading kept, or the failure), a view removed (what no
    /// one wants is forgotten) and where a place was found; and every change is published
    /// from there.
    @Test func everyCallOfTheWeatherArchiveRunsOnItsOwner() async throws {
        try await withStore { almanac, archive in
            let weather = almanac.weather
            var heard = HeardChanges(weather)
            let client = try await almanac.connect()
            _ = try await client.submit(.weather, ["units": .string("imperial")])
            #expect(await heard.wait { $0 == .units(.imperial) })
            let berlin = try await client.addView(.weather, options: ["location": .string("Berlin")])
            #expect(await heard.wait { $0.location == "Berlin" && $0.failure == nil })
            // The demo provider knows no Atlantis: the fetch fails.
            let atlantis = try await client.addView(.weather, options: ["location": .string("Atlantis")])
            #expect(await heard.wait { $0.failure != nil })
            try await client.removeView(.weather, atlantis)
            #expect(await heard.wait { $0 == .forgotten(["Atlantis"]) })
            try await client.removeView(.weather, berlin)
            #expect(await heard.wait { $0 == .forgotten(["Berlin"]) })
            // Watched again, Berlin is served its kept reading.
            _ = try await client.addView(.weather, options: ["location": .string("Berlin")])
            #expect(await heard.wait { $0.location == "Berlin" && $0.failure == nil })
            _ = try await weather.resolvedPlace(for: "Oslo")
            let calls = archive.calls.withLock { $0 }
            for called in ["saveSettings(weather)", "saveReading", "lastReading"] {
                #expect(calls.contains(called), "\(called) was not called")
            }
            #expect(archive.offWeatherOwner.withLock { $0 } == [])
            #expect(heard.all.filter { !$0.onOwner }.map { HeardChanges.named($0.change) } == [])
            #expect(heard.all.count == 6)
        }
    }

    /// Readings a service reports while the weather document's owner is busy wait in its
    /// mailbox and are kept in one transaction; each report returns once its reading is shown.
    /// A lone write opens none.
    @Test func readingsReportedTogetherAreKeptInOneTransaction() async throws {
        try await withStore { almanac, archive in
            let weather = almanac.weather
            let places = ["Berlin", "Paris", "Oslo", "Rome"]
            for place in places { weather.document.addView(key: ViewKey(place), options: WeatherViewOptions(location: place)) { _ in } }
            let service = DemoWeatherService()
            let before = archive.weatherTransactions.load(ordering: .relaxed)
            let hold = OwnerHold(weather.onOwner)
            await withTaskGroup(of: Void.self) { group in
                for place in places {
                    group.addTask { await weather.weatherService(service, didFetch: StateApplyReading.make(place)) }
                }
                #expect(await eventually { weather.waitingForOwner == places.count })
                hold.release()
                await group.waitForAll()
            }
            #expect(archive.weatherTransactions.load(ordering: .relaxed) - before == 1)
            #expect(archive.calls.withLock { $0 }.filter { $0 == "saveReading" }.count == places.count)
            #expect(Set(weather.document.snapshot.state.readings.keys) == Set(places))
            let kept = try places.map { try archive.store.lastReading(at: $0)?.location }
            #expect(kept == places)
            // A burst of one write needs no transaction: a single statement is atomic by itself.
            try weather.submit(.units(.imperial), from: nil)
            #expect(archive.weatherTransactions.load(ordering: .relaxed) - before == 1)
            #expect(archive.calls.withLock { $0 }.contains("saveSettings(weather)"))
        }
    }

    /// Submits that arrive while the owner writes wait in its mailbox and go in one
    /// transaction (each here takes a slow disk's 200 ms); each caller hears its own revision.
    @Test func concurrentSubmitsShareTransactionsAndEachHearsItsOwnRevision() async throws {
        try await withStore { almanac, archive in
            let clients = [try await almanac.connect(), try await almanac.connect(), try await almanac.connect(), try await almanac.connect()]
            let perClient = 8
            let count = clients.count * perClient
            let before = (archive.transactions.load(ordering: .relaxed), almanac.podcasts.document.revision)
            archive.slowTransactions.store(200, ordering: .relaxed)
            let revisions = try await withThrowingTaskGroup(of: UInt64.self) { group in
                for (c, client) in clients.enumerated() {
                    for n in 0..<perClient {
                        let episode = "show-\(c * perClient + n + 1)"
                        group.addTask { try await client.submit(.podcasts, ["episode": .string(episode), "position": .double(Double(10 + n))]) }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            archive.slowTransactions.store(0, ordering: .relaxed)
            #expect(revisions.count == count)
            #expect(Set(revisions).count == count, "each its own revision: \(revisions.sorted())")
            #expect(revisions.sorted() == Array((before.1 + 1)...(before.1 + UInt64(count))))
            let transactions = archive.transactions.load(ordering: .relaxed) - before.0
            #expect(transactions >= 1 && transactions < count, "\(transactions) transactions for \(count) Submits")
            // On disk, every one of them.
            for n in 1...count { #expect(try archive.store.episode("show-\(n)")?.position ?? 0 >= 10) }
        }
    }

    /// A command the document refuses in the middle of a burst changes nothing; the others of
    /// its burst land, in the same transaction (the podcasts document over the real SQLite
    /// file, its owner held while the three are sent).
    @Test func aRefusedCommandSpoilsNothingOfItsBurst() async throws {
        try await withStore { almanac, archive in
            let podcasts = almanac.podcasts
            let heard = Locked<[PodcastsChange]>([])
            podcasts.document.addView(key: ViewKey("listener")) { event in
                if case .changed(_, let change, _) = event { heard.withLock { $0.append(change) } }
            }
            let before = (archive.transactions.load(ordering: .relaxed), podcasts.document.revision)
            let answers = Locked<[Int: Result<UInt64, any Error>]>([:])
            let hold = OwnerHold(podcasts.onOwner)
            let submissions: [PodcastsSubmission] = [
                .playState(PlayStateSubmission(episodeID: "show-1", played: true)),
                .playState(PlayStateSubmission(episodeID: "nowhere", played: true)),
                .playState(PlayStateSubmission(episodeID: "show-2", position: 42)),
            ]
            for (index, submission) in submissions.enumerated() {
                podcasts.send(submission, from: nil) { result in answers.withLock { $0[index] = result } }
            }
            #expect(podcasts.waitingForOwner == 3)
            hold.release()
            OwnerHold.drain(podcasts.onOwner)
            let results = answers.withLock { $0 }
            #expect((try? results[0]?.get()) == before.1 + 1)
            guard case .failure(let error)? = results[1] else { Issue.record("an unknown episode must be refused: \(results)"); return }
            #expect(error is SubmissionError)
            #expect((try? results[2]?.get()) == before.1 + 2)
            #expect(archive.transactions.load(ordering: .relaxed) - before.0 == 1)
            #expect(heard.withLock { $0.count } == 2)
            let (first, last, refused) = try (archive.store.episode("show-1"), archive.store.episode("show-2"), archive.store.episode("nowhere"))
            #expect(first?.played == true && last?.position == 42 && refused == nil)
        }
    }
}
