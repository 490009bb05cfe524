@testable import AlmanacWire
import AlmanacModels
import DBus
import Foundation

/// `Player1`'s, `Sync1`'s and `Download1`'s values: the sleep timer (asked for and set),
/// what plays, a chapter; the sync's properties, `Login`'s and `Sync`'s answers; a download
/// job's properties.
extension GoldenCases {
    static let playing = NowPlaying(episodeID: "p-1", title: "Folge 1: Über alles", podcastTitle: podcast.title, status: "Playing", position: 61.25,
                                    at: second + 0.5, rate: 1.5, length: 3_661.5, chapter: FeedChapter(start: 60, title: "Kapitel 2"))
    static let barePlaying = NowPlaying(episodeID: "q-1", title: "", podcastTitle: "", status: "Paused", position: 0, at: second, rate: 1,
                                        length: nil, chapter: nil)

    static var player: [GoldenCase] {
        [
            GoldenCase("timer", fields: fields(SleepTimerProperty(.at(second + 600), player: "org.mpris.MediaPlayer2.mpv", episode: "p-1", pausesAt: second + 600.4))) {
                try WireCoding.decodeIfAny(SleepTimerProperty.self, fromFields: $0)?.state == SleepTimerState(kind: "time", pausesAt: second + 600, episode: "p-1")
            },
            GoldenCase("timer-episode", fields: fields(SleepTimerProperty(.endOfEpisode, player: "org.mpris.MediaPlayer2.vlc", episode: "", pausesAt: nil))) {
                try WireCoding.decodeIfAny(SleepTimerProperty.self, fromFields: $0)?.state == SleepTimerState(kind: "episode", pausesAt: nil, episode: "")
            },
            // No timer: the property is `{}` (PlayerExport).
            GoldenCase("timer-none", fields: [:]) { try WireCoding.decodeIfAny(SleepTimerProperty.self, fromFields: $0) == nil },
            GoldenCase("sleep-seconds", fields: fields(SleepRequest(seconds: 900))) { try PlayerCodec.sleepTimer($0, now: second) == .at(second + 900) },
            GoldenCase("sleep-chapter", fields: fields(SleepRequest(end: "chapter"))) { try PlayerCodec.sleepTimer($0, now: second) == .endOfChapter },
            GoldenCase("chapter", fields: fields(ChapterMark(FeedChapter(start: 61.5, title: "Kapitel 2 — Über", url: "https://example.org/c")))) {
                try WireCoding.decodeIfAny(ChapterMark.self, fromFields: $0)?.chapter == FeedChapter(start: 61.5, title: "Kapitel 2 — Über")
            },
            GoldenCase("nowPlaying", fields: fields(playing)) { try WireCoding.decodeIfAny(NowPlaying.self, fromFields: $0) == playing },
            GoldenCase("nowPlaying-bare", fields: fields(barePlaying)) { try WireCoding.decodeIfAny(NowPlaying.self, fromFields: $0) == barePlaying },
            // Nothing plays: the property is `{}` (PlayerExport).
            GoldenCase("nowPlaying-nothing", fields: [:]) { try WireCoding.decodeIfAny(NowPlaying.self, fromFields: $0) == nil },
        ]
    }

    static let account = SyncAccount(server: "https://gpodder.example.org", user: "zoë", device: "almanac-laptop", caption: "Almanac auf dem Laptop", flavour: .nextcloud)

    static var sync: [GoldenCase] {
        let status = SyncStatus(account: account, lastSync: second, queued: 3, lastError: "HTTP 502: Gateway", syncing: true, passwordStore: "Secret Service")
        let report: SyncReport = {
            var report = SyncReport()
            report.subscribed = ["https://example.org/feed.xml"]
            report.unsubscribed = ["https://example.org/old.xml", "https://example.org/older.xml"]
            report.episodesUpdated = 14
            report.sent = 2
            report.unreadFeeds = ["https://example.org/broken.xml": "not a feed", "https://example.org/gone.xml": "HTTP 410"]
            return report
        }()
        return [
            GoldenCase("properties", fields: fields(status)) { try WireCoding.decode(SyncStatus.self, fromFields: $0) == status },
            GoldenCase("properties-loggedOut", fields: fields(SyncStatus())) { try WireCoding.decode(SyncStatus.self, fromFields: $0) == SyncStatus() },
            // `Login`'s answer, read back as AlmanacClient.syncLogin reads it.
            GoldenCase("login", value: value(account)) { try WireCoding.decode(SyncAccount.self, fromFields: try $0.arguments([String: Value].self)) == account },
            GoldenCase("report", value: value(report)) { try WireCoding.decode(SyncReport.self, fromFields: try $0.arguments([String: Value].self)) == report },
            GoldenCase("report-nothing", value: value(SyncReport())) { try WireCoding.decode(SyncReport.self, fromFields: try $0.arguments([String: Value].self)) == SyncReport() },
        ]
    }

    static var downloads: [GoldenCase] {
        let jobs: [(String, DownloadJob)] = [
            ("downloading", DownloadJob(id: 7, episodeID: "p-1", podcastID: "p", url: "https://example.org/1.mp3", folder: "", name: "", owner: ":1.42",
                                        state: .downloading, received: 1 << 20, total: 5 << 30)),
            ("completed", DownloadJob(id: 8, episodeID: "q-1", podcastID: "q", url: "https://example.org/ü.mp3", folder: "", name: "", owner: "almanacd",
                                      state: .completed, received: 123, total: 123, file: "/home/zoë/Über.mp3")),
            ("failed", DownloadJob(id: UInt64.max, episodeID: "p-2", podcastID: "p", url: "https://example.org/2.mp3", folder: "", name: "", owner: "",
                                   state: .failed, error: "HTTP 404: nicht gefunden")),
        ]
        return jobs.map { name, job in
            // As DownloadsExport.properties makes them (`GetAll`, ObjectManager).
            GoldenCase("job-\(name)", fields: fields(DownloadProperties(job, error: job.error))) {
                try WireCoding.decode(DownloadProperties.self, fromFields: $0).job(at: BusContract.downloadPath(job.id)) == job
            }
        }
    }
}
