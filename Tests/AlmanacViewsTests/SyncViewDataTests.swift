import AlmanacModels
import AlmanacViews
import Foundation
import TestHarness
import Testing

/// What `almanac sync status` and `almanac sync now` print, from the values alone.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SyncViewDataTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let account = SyncAccount(server: "https://gpodder.net", user: "alice", device: "almanac-laptop", caption: "Almanac on laptop", flavour: .gpodder)

    @Test func aStatusSaysWhereWhoAndHowItWent() {
        let status = SyncStatus(account: account, lastSync: now.addingTimeInterval(-180), queued: 2, lastError: "Could not reach gpodder.net: offline.",
                                passwordStore: "secret-service")
        let view = SyncStatusViewData(status: status, now: now, utcOffset: 3_600)
        #expect(view.rows.map(\.label) == ["server", "user", "device", "protocol", "password", "last sync", "queued", "last error"])
        #expect(view.rows.map(\.value) == ["https://gpodder.net", "alice", "almanac-laptop (Almanac on laptop)", "gpodder.net API v2",
                                          "in the Secret Service (the desktop's keyring)", "08:57 (3 minutes ago)", "2 changes",
                                          "Could not reach gpodder.net: offline."])
        #expect(view.json["lastSync"] == .string("2027-01-15T08:57:00+01:00") && view.json["lastSyncUnix"] == .integer(1_799_999_820))
        #expect(view.json["queued"] == .integer(2) && view.json["loggedIn"] == .boolean(true) && view.json["passwordStore"] == .string("secret-service"))
    }

    @Test func loggedOutEveryKeyIsThereAndNull() {
        let view = SyncStatusViewData(status: SyncStatus(), now: now, utcOffset: 0)
        #expect(view.rows.map(\.value) == ["not logged in"])
        #expect(view.json["server"] == .null && view.json["lastSync"] == .null && view.json["lastError"] == .null && view.json["loggedIn"] == .boolean(false))
        let never = SyncStatusViewData(status: SyncStatus(account: account, passwordStore: "file"), now: now, utcOffset: 0)
        #expect(never.rows.first { $0.label == "last sync" }?.value == "never" && never.rows.count == 7)
    }

    /// No account shown with an error: the daemon could not read its state file. That is not
    /// "not logged in" (issue 32: a fault is never an empty answer).
    @Test func aStateThatCouldNotBeReadIsNotLoggedOut() {
        let status = SyncStatus(lastError: "The state file could not be read, so the sync stopped and kept everything as it was: disk I/O error.")
        let view = SyncStatusViewData(status: status, now: now, utcOffset: 0)
        #expect(view.rows.map(\.label) == ["sync", "last error"])
        #expect(view.rows.map(\.value) == ["unknown", status.lastError])
        #expect(view.json["loggedIn"] == .null && view.json["lastError"] == .string(status.lastError))
    }

    @Test func aReportCountsWhatChanged() {
        var report = SyncReport()
        #expect(SyncReportViewData(report: report, server: "https://gpodder.net").summary == "synced with https://gpodder.net: nothing to change")
        report.subscribed = ["https://a.example/feed.xml"]
        report.unsubscribed = ["https://b.example/feed.xml", "https://c.example/feed.xml"]
        report.episodesUpdated = 1
        report.sent = 4
        report.unreadFeeds = ["https://d.example/feed.xml": "HTTP 404."]
        let view = SyncReportViewData(report: report, server: "https://gpodder.net")
        #expect(view.summary == "synced with https://gpodder.net: 1 podcast subscribed, 2 podcasts given up, 1 episode updated, 4 changes sent")
        #expect(view.unreadFeeds == ["https://d.example/feed.xml: HTTP 404."])
        #expect(view.json["sent"] == .integer(4) && view.json["unreadFeeds"] == .object(["https://d.example/feed.xml": .string("HTTP 404.")]))
    }
}
