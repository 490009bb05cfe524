import AlmanacCore
import AlmanacModels
@testable import AlmanacServices
import Foundation
import Locking
import TestHarness
import Testing

/// A restore through the documents' owners on a real state file, while writers go on: each
/// write lands wholly on the library before the swap or wholly on the restored one — what the
/// document shows is what the file holds — and every view hears the restored state.
@Suite(.onTestThreads, .timeLimit(.hang)) struct LibraryRestoreTests {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-restore-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("state"), withIntermediateDirectories: true)
    }

    @Test func writesDuringARestoreLandWhollyOnOneLibraryOrTheOther() async throws {
        let store = try StateStore(folder: root.appendingPathComponent("state"), logger: .discarding)
        let folder = try BackupFolder(folder: root.appendingPathComponent("state/backups"), store: store, downloads: root.appendingPathComponent("data"))
        let podcasts = try PodcastsDocument(archive: store, logger: .discarding)
        let weather = WeatherDocument(try store.weatherState(), archive: store, logger: .discarding)
        let backups = LibraryBackups(storage: folder, weather: weather, podcasts: podcasts, logger: .discarding)
        let podcast = Podcast(id: "p", title: "Show", author: "", feedURL: "https://p.example/feed")
        let episodes = (0..<16).map { Episode(id: "p-\($0)", podcastID: "p", title: "\($0)", published: Date(timeIntervalSince1970: Double(1_800_000_000 + $0)), duration: nil) }
        try await podcasts.withOwner { _ = try podcasts.subscribe(podcast, episodes: episodes) }
        try await weather.withSubmission(.units(.imperial))
        let backup = try await backups.backUp()
        try await weather.withSubmission(.units(.metric))
        let resyncs = Counter()
        podcasts.document.addView(key: ViewKey("watcher")) { event in
            if case .resynchronised = event { resyncs.add() }
        }

        let stop = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for episode in episodes {
                group.addTask {
                    var position = 0.0
                    while stop.value == 0 {
                        position += 1
                        try await podcasts.submitting(.playState(PlayStateSubmission(episodeID: episode.id, position: position)))
                    }
                }
            }
            // Each time the library differs from the backup in what no writer touches (a title).
            for round in 0..<10 {
                try await podcasts.withOwner { _ = try podcasts.rename("p", to: "Renamed") }
                _ = try await backups.restore(backup.name)
                // Once the owner has done what was sent meanwhile: no burst begun on the
                // library before the swap was published over the restored one.
                try await podcasts.withOwner {}
                #expect(podcasts.document.state.podcasts["p"]?.title == "Show", "round \(round)")
            }
            stop.add()
            try await group.waitForAll()
        }

        let shown = podcasts.document.state
        // No burst begun on the library before the swap was published over the restored one.
        #expect(shown.podcasts == (try store.podcastsState()).podcasts)
        #expect(shown.podcasts["p"]?.title == "Show")
        for episode in episodes {
            let kept = try store.episode(episode.id)?.position
            #expect(shown.episodes[episode.id]?.position == kept, "\(episode.id)")
        }
        #expect(resyncs.value == 10)
        // The weather document reads the restored settings too.
        let keptUnits = try store.weatherState().units
        #expect(weather.document.state.units == .imperial && keptUnits == .imperial)
        #expect(try store.integrityCheck())
    }
}

/// A count several tasks add to.
private final class Counter: Sendable {
    private let count = Locked(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}

extension PodcastsDocument {
    /// Sends `submission` and waits for its answer without holding a thread.
    func submitting(_ submission: PodcastsSubmission) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            send(submission, from: nil) { continuation.resume(with: $0.map { _ in () }) }
        }
    }
}

extension WeatherDocument {
    /// Submits `submission` and waits until it is saved and applied.
    func withSubmission(_ submission: WeatherSubmission) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            do {
                try send(submission, from: nil) { continuation.resume(with: $0.map { _ in () }) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}
