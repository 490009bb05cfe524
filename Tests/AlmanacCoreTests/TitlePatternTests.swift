import AlmanacModels
import TestHarness
import Testing

/// `TitlePattern`: which include/exclude patterns are taken (only shapes whose matching time
/// is bounded) and how titles match them.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TitlePatternTests {
    @Test(arguments: ["interview", "^Episode \\d+:", "bonus|trailer", "\\bQ&A\\b", "(?i)live", "[a-z]x*", "a{2,3}?b+", "(part) one", "x\\{y"])
    func simplePatternsAreTaken(_ pattern: String) {
        #expect(TitlePattern.refusal(pattern, name: "include") == nil)
    }

    @Test(arguments: [
        ("(a+)+b", "repeats a group"),
        ("a*a*a*b", "more than 2 quantifiers"),
        ("(a|aa)c", "a choice (|) inside a group"),
        ("(a)\\1", "refers back to a group"),
        ("[unclosed", "is not a regular expression"),
        (String(repeating: "x", count: 101), "is 101 bytes long; a title pattern is at most 100"),
    ])
    func patternsThatCouldTakeUnboundedTimeOrDoNotCompileAreRefused(_ pattern: String, _ reason: String) throws {
        let refusal = try #require(TitlePattern.refusal(pattern, name: "include"))
        #expect(refusal.contains(reason), "\(refusal)")
        #expect(!TitlePattern.matches(pattern, "aaaa"))
    }

    @Test func titlesMatchIgnoringCaseWithinTheirFirstCharacters() {
        #expect(TitlePattern.matches("interview", "An INTERVIEW with"))
        #expect(!TitlePattern.matches("^interview", "An interview"))
        #expect(!TitlePattern.matches("end$", String(repeating: "x", count: TitlePattern.matchedLength) + " end"))
    }

    @Test func aRefusedPatternInASubmissionChangesNothing() throws {
        var submission = PreferencesSubmission(autoDownload: true)
        submission.exclude = "(a+)+"
        #expect(throws: SubmissionError.self) { try submission.applied(to: PodcastPreferences()) }
        submission.exclude = ""
        submission.include = "news"
        submission.episodeTypes = "full, bonus"
        let applied = try submission.applied(to: PodcastPreferences(autoDownload: false))
        #expect(applied.include == "news" && applied.exclude == nil && applied.downloadKinds == [.full, .bonus] && applied.autoDownload)
        submission.episodeTypes = "full,teaser"
        #expect(throws: SubmissionError.self) { try submission.applied(to: PodcastPreferences()) }
        submission.episodeTypes = " , "
        #expect(throws: SubmissionError.self) { try submission.applied(to: PodcastPreferences()) }
    }
}
