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
            GoldenCase("timer", fields: PlayerCodec.encode(timer: .at(second + 600), player: "org.mpris.MediaPlayer2.mpv", episode: "p-1", pausesAt: second + 600.4)) {
                PlayerCodec.decodeTimer($0) == SleepTimerState(kind: "time", pausesAt: second + 600, episode: "p-1")
            },
            GoldenCase("timer-episode", fields: PlayerCodec.encode(timer: .endOfEpisode, player: "org.mpris.MediaPlayer2.vlc", episode: "", pausesAt: nil)) {
                PlayerCodec.decodeTimer($0) == SleepTimerState(kind: "episode", pausesAt: nil, episode: "")
            },
            GoldenCase("timer-none", fields: PlayerCodec.encode(timer: nil, player: "", episode: "", pausesAt: nil)) { PlayerCodec.decodeTimer($0) == nil },
            GoldenCase("sleep-seconds", fields: PlayerCodec.sleepOptions(seconds: 900)) { try PlayerCodec.sleepTimer($0, now: second) == .at(second + 900) },
            GoldenCase("sleep-chapter", fields: PlayerCodec.sleepOptions(end: "chapter")) { try PlayerCodec.sleepTimer($0, now: second) == .endOfChapter },
            GoldenCase("chapter", fields: PlayerCodec.encode(FeedChapter(start: 61.5, title: "Kapitel 2 — Über", url: "https://example.org/c"))) {
                PlayerCodec.decodeChapter($0) == FeedChapter(start: 61.5, title: "Kapitel 2 — Über")
            },
            GoldenCase("nowPlaying", fields: PlayerCodec.encode(playing)) { PlayerCodec.decodeNowPlaying($0) == playing },
            GoldenCase("nowPlaying-bare", fields: PlayerCodec.encode(barePlaying)) { PlayerCodec.decodeNowPlaying($0) == barePlaying },
            GoldenCase("nowPlaying-nothing", fields: PlayerCodec.encode(nil as NowPlaying?)) { PlayerCodec.decodeNowPlaying($0) == nil },
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
            GoldenCase("properties", fields: SyncCodec.properties(status)) { SyncCodec.status($0) == status },
            GoldenCase("properties-loggedOut", fields: SyncCodec.properties(SyncStatus())) { SyncCodec.status($0) == SyncStatus() },
            // `Login`'s answer, read back as AlmanacClient.syncLogin reads it.
            GoldenCase("login", value: SyncCodec.encode(account)) { message in
                let values = try message.arguments([String: Value].self)
                return values["server"]?.stringValue == account.server && values["user"]?.stringValue == account.user
                    && values["device"]?.stringValue == account.device && values["caption"]?.stringValue == account.caption
                    && values["flavour"]?.stringValue == account.flavour.rawValue
            },
            GoldenCase("report", value: SyncCodec.encode(report)) { SyncCodec.report(try $0.arguments([String: Value].self)) == report },
            GoldenCase("report-nothing", value: SyncCodec.encode(SyncReport())) { SyncCodec.report(try $0.arguments([String: Value].self)) == SyncReport() },
        ]
    }

    /// A job's properties as DownloadsExport.properties makes them (`GetAll`, ObjectManager).
    static func downloadProperties(_ job: DownloadJob) -> [String: Value] {
        [
            BusContract.Download1.episode.rawValue: .string(job.episodeID), BusContract.Download1.podcast.rawValue: .string(job.podcastID),
            BusContract.Download1.url.rawValue: .string(job.url), BusContract.Download1.state.rawValue: .string(job.state.rawValue),
            BusContract.Download1.received.rawValue: .uint64(job.received), BusContract.Download1.total.rawValue: .uint64(job.total),
            BusContract.Download1.error.rawValue: .string(job.error), BusContract.Download1.file.rawValue: .string(job.file),
            BusContract.Download1.owner.rawValue: .string(job.owner),
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
            GoldenCase("job-\(name)", fields: downloadProperties(job)) { DownloadsCodec.decode(path: BusContract.downloadPath(job.id), $0) == job }
        }
    }
}
