@testable import AlmanacServices
import Foundation
import TestHarness
import Testing

/// The parsed answers the alert sources keep: each with the validators it came with, and
/// dropped once not asked for within `forgetAfter` (a country or a place no longer wanted).
@Suite(.onTestThreads, .timeLimit(.hang)) struct ParsedAnswersTests {
    let germany = URL(string: "https://feeds.example/api/v1/warnings/feeds-germany")!
    let sweden = URL(string: "https://feeds.example/api/v1/warnings/feeds-sweden")!
    let finland = URL(string: "https://feeds.example/api/v1/warnings/feeds-finland")!
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func answer(_ value: Int, at date: Date) -> ParsedAnswers<Int>.Answer {
        .init(etag: "\"\(value)\"", lastModified: nil, value: value, asked: date)
    }

    @Test func anAnswerNotAskedForWithinForgetAfterIsDropped() {
        let answers = ParsedAnswers<Int>(forgetAfter: 1_200)
        answers.remember(germany, answer(1, at: start))
        answers.remember(sweden, answer(2, at: start))
        // Germany is asked for again; Sweden is not.
        #expect(answers.recall(germany, now: start + 1_000)?.value == 1)
        #expect(answers.recall(finland, now: start + 1_500) == nil)
        #expect(answers.urls == [germany])
        #expect(answers.recall(germany, now: start + 2_100)?.etag == "\"1\"")
        // Nothing asked for a while: nothing kept.
        #expect(answers.recall(finland, now: start + 4_000) == nil)
        #expect(answers.urls.isEmpty)
    }
}
