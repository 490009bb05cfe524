@testable import AlmanacViews
import AlmanacModels
import TestHarness
import Testing

/// How transcripts and their moments are printed, and how `--at` reads a time.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TranscriptViewDataTests {
    @Test func linesAlignTheirTimesAndNameTheSpeaker() {
        let view = TranscriptViewData(transcript: Transcript(url: "https://e/t.vtt", format: .vtt, segments: [
            TranscriptSegment(start: 1.9, text: "Hello."), TranscriptSegment(start: 751.5, speaker: "Grace", text: "Compost."),
            TranscriptSegment(start: 3_723, text: "Bye."),
        ]), episodeID: "e")
        #expect(view.lines == ["   0:01  Hello.", "  12:31  Grace: Compost.", "1:02:03  Bye."])
        let untimed = TranscriptViewData(transcript: Transcript(url: "https://e/t.html", format: .html, segments: [TranscriptSegment(start: nil, text: "Words.")]), episodeID: "e")
        #expect(untimed.lines == ["Words."] && !untimed.timed)
    }

    @Test func aMomentShowsTheWordsAroundTheMatch() {
        let long = String(repeating: "lorem ipsum ", count: 20) + "we talk about compost heaps and worms " + String(repeating: "dolor sit ", count: 20)
        let moment = TranscriptMomentViewData(moment: TranscriptMoment(episodeID: "e", start: 751.4, text: long), search: "compost heaps")
        #expect(moment.line.hasPrefix("12:31 …"), "\(moment.line)")
        #expect(moment.line.contains("compost heaps") && moment.line.hasSuffix("…"), "\(moment.line)")
        #expect(moment.excerpt.count <= TranscriptMomentViewData.width + 2)
        let short = TranscriptMomentViewData(moment: TranscriptMoment(episodeID: "e", start: nil, text: "Compost heaps."), search: "compost")
        #expect(short.line == "Compost heaps.")
    }

    @Test(arguments: [("12:31", 751.0), ("1:02:03", 3_723), ("0:45", 45), ("90", 90), (" 5:00 ", 300)])
    func aTimeIsRead(text: String, seconds: Double) {
        #expect(clockSeconds(text) == seconds)
    }

    @Test(arguments: ["12:61", "1:60:00", "soon", "-5", "1:2:3:4", "", "12:", "1.5", "１２:３１"])
    func anythingElseIsNotATime(text: String) {
        #expect(clockSeconds(text) == nil)
    }
}
