import AlmanacModels
import AlmanacViews
import Foundation
import TestHarness
import Testing

/// The words and bars of downloads and of new-episode notifications.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DownloadViewDataTests {
    func job(_ state: DownloadState, received: UInt64, total: UInt64) -> DownloadJob {
        DownloadJob(id: 7, episodeID: "e1", podcastID: "p", url: "https://x/e1.mp3", folder: "/d", name: "E1", owner: "",
                    state: state, received: received, total: total)
    }

    @Test func aTransferUnderWayHasPercentBytesRateAndTimeLeft() {
        let view = DownloadProgressViewData(job: job(.downloading, received: 21_600_000, total: 48_000_000), bytesPerSecond: 1_200_000)
        #expect(view.percent == "45%")
        #expect(view.bytes == "21.6 MB of 48.0 MB")
        #expect(view.rate == "1.2 MB/s")
        #expect(view.eta == "0:22 left")
        #expect(view.bar(width: 12) == "[===>      ]")
        #expect(view.fields["state"] == "downloading")
        // Template fields and JSON carry values, not labels.
        #expect(view.fields["eta"] == "0:22" && view.timeLeft == "0:22")
        // JSON: numbers as numbers, the words beside them.
        #expect(view.json["eta"] == .number(22) && view.json["etaText"] == .string("0:22"))
        #expect(view.json["rate"] == .number(1_200_000) && view.json["rateText"] == .string("1.2 MB/s"))
        #expect(view.json["fraction"] == .number(0.45) && view.json["percent"] == .number(45))
        #expect(view.json["received"] == .integer(21_600_000) && view.json["total"] == .integer(48_000_000))
        #expect(view.json["file"] == .null && view.json["error"] == .null)
        let json = String(decoding: try! JSONEncoder().encode(view), as: UTF8.self)
        #expect(json.contains("\"eta\":22") && json.contains("\"fraction\":0.45"), "\(json)")
    }

    @Test func aQueuedJobHasDoneNothingAndAStartedOneOfUnknownSizeHasNoFraction() {
        let queued = DownloadProgressViewData(job: job(.queued, received: 0, total: 0), bytesPerSecond: nil)
        #expect(queued.fraction == 0 && queued.fields["fraction"] == "0.000")
        let unknown = DownloadProgressViewData(job: job(.downloading, received: 512, total: 0), bytesPerSecond: nil)
        #expect(unknown.fraction == nil)
        let json = String(decoding: try! JSONEncoder().encode(unknown), as: UTF8.self)
        #expect(json.contains("\"fraction\":null"), "every key, even when unknown: \(json)")
    }

    @Test func unknownSizesAndOddRatesSayLess() {
        let unknown = DownloadProgressViewData(job: job(.downloading, received: 512, total: 0), bytesPerSecond: nil)
        #expect(unknown.percent == "" && unknown.bytes == "512 B" && unknown.rate == "" && unknown.eta == "")
        #expect(unknown.bar(width: 6) == "[????]")
        for rate in [Double.nan, .infinity, -5, 0] {
            let view = DownloadProgressViewData(job: job(.downloading, received: 1, total: 10), bytesPerSecond: rate)
            #expect(view.rate == "" && view.eta == "")
        }
        // An hour and more, and a rate so slow it would take weeks.
        #expect(DownloadProgressViewData(job: job(.downloading, received: 0, total: 3_723_000), bytesPerSecond: 1_000).eta == "1:02:03 left")
        #expect(DownloadProgressViewData(job: job(.downloading, received: 0, total: 2_000_000_000), bytesPerSecond: 1).eta == "--:-- left")
        // More received than announced never draws past the end.
        #expect(DownloadProgressViewData(job: job(.downloading, received: 20, total: 10), bytesPerSecond: nil).bar(width: 6) == "[====]")
    }

    @Test func finishedJobsShowNoRate() {
        let done = DownloadProgressViewData(job: job(.completed, received: 1_500_000_000, total: 1_500_000_000), bytesPerSecond: 9e6)
        #expect(done.bytes == "1.50 GB of 1.50 GB" && done.percent == "100%" && done.rate == "")
    }

    @Test func noticesNameEachFeedAndTheCount() {
        let one = NewEpisodesNotice([("Garden Weather", 1)])
        #expect(one.summary == "1 new episode" && one.body == "Garden Weather: 1 new")
        let several = NewEpisodesNotice([("Q&A <Live>", 2), ("Morning", 1)])
        #expect(several.summary == "3 new episodes")
        #expect(several.body == "Q&A <Live>: 2 new\nMorning: 1 new")
        let many = NewEpisodesNotice((1...10).map { ("Feed \($0)", 1) })
        #expect(many.body.split(separator: "\n").count == 9 && many.body.hasSuffix("and 2 more feeds"))
    }
}
