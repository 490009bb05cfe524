import AlmanacModels
import TestHarness
import Testing

/// `TitlePattern`: which include/exclude patterns are taken (regular expressions without
/// what needs going back over the title), how titles match them (as Swift's `Regex` would,
/// ignoring case), and that the worst of them is judged without backtracking.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TitlePatternTests {
    @Test(arguments: ["interview", "^Episode \\d+:", "bonus|trailer", "\\bQ&A\\b", "(?i)live", "[a-z]x*", "a{2,3}?b+", "(part) one", "x\\{y",
                      // Shapes a backtracking engine takes exponential or polynomial time over; linear here.
                      "(a+)+b", "a*a*a*b", "(a|aa)c", "(?x)(a+) +b", "(a|a)*$", "(?:x+x+)+y",
                      "(?<name>news) (?:daily|weekly)", "\\Qa.b\\E", "[\\w-]+ \\x41\\u{42}", "(?x) a b # a comment", "a{,3}b{2,}"])
    func regularExpressionsWithoutBackreferencesOrLookaroundAreTaken(_ pattern: String) {
        #expect(TitlePattern.refusal(pattern, name: "include") == nil)
    }

    @Test(arguments: [
        ("(a)\\1", "a reference back to a group"),
        ("(?<n>a)\\k<n>", "a reference back to a group"),
        ("(?=a)b", "a lookahead"),
        ("(?<!a)b", "a lookbehind"),
        ("(?>a+)b", "an atomic group"),
        ("a++b", "a possessive quantifier"),
        ("(a(?R)?b)", "a recursion"),
        ("[unclosed", "is not a regular expression: a '[' without its ']'"),
        ("(open", "is not a regular expression: a '(' without its ')'"),
        ("close)", "is not a regular expression: a ')' without its '('"),
        ("*a", "'*' with nothing before it to repeat"),
        ("a**", "a quantifier right after another"),
        ("\\p{L}+", "a Unicode property"),
        ("[[:alpha:]]", "a '[' inside a class"),
        ("(?s)a.b", "the option 's'"),
        ("(?-i)Ab", "titles are always matched ignoring case"),
        ("\\q", "the escape '\\q'"),
        ("a{1001}", "a count over 1000"),
        ("(?:(?:a{100}){100}){100}", "more than 1000 steps"),
        ("(((?:){1000}){1000}){1000}", "more than 1000 steps"),
        ("[z-a]", "whose ends are the wrong way round"),
        (String(repeating: "x", count: 101), "is 101 bytes long; a title pattern is at most 100"),
    ])
    func patternsThatNeedGoingBackOrDoNotReadAreRefusedSayingWhy(_ pattern: String, _ reason: String) throws {
        let refusal = try #require(TitlePattern.refusal(pattern, name: "include"))
        #expect(refusal.contains(reason), "\(refusal)")
        #expect(refusal.hasPrefix("'include' "), "\(refusal)")
        #expect(!TitlePattern.matches(pattern, "aaaa"))
        #expect(TitlePattern(pattern) == nil)
    }

    static let titles = ["Interview with Ada", "An INTERVIEW with", "aaaa", "aaab", "Episode 12: News", "episode x: news", "Q&A live", "QandA",
                         "Bonus: trailer", "Été à Paris", "ÉTÉ", "a b", "", "part one", "Part  one", "xxxy", "News daily", "a.b", "axb", "AB",
                         "ab-cd AB", "x{y", "[bracket]", "tab\there", "ends with b"]

    /// Patterns both read the same way (no option or escape only one of them knows).
    @Test(arguments: ["interview", "^Episode \\d+:", "bonus|trailer", "\\bQ&A\\b", "[a-z]x*", "a{2,3}?b+", "(part) one", "x\\{y", "(a+)+b",
                      "a*a*a*b", "(a|aa)c", "(a|a)*$", "(?:x+x+)+y", "(?<name>news) (?:daily|weekly)", "a\\.b", "a.b", "[^a]b", "[\\w-]+ ab",
                      "été", "^$", "\\Bnt", "\\s\\S", "[A-Z]{2}", "\\W+b", "\\[\\w+\\]", "^(?:a|b)?$", "e\\z", "^\\w+$", "\\d", "\\D{3}"])
    func titlesMatchAsSwiftsRegexMatchesThemIgnoringCase(_ pattern: String) throws {
        let regex = try Regex(pattern).ignoresCase()
        for title in Self.titles {
            let expected = try regex.firstMatch(in: title) != nil
            #expect(TitlePattern.matches(pattern, title) == expected, "\(pattern) against \(title.debugDescription): Regex says \(expected)")
        }
    }

    @Test func titlesMatchWithinTheirFirstCharactersAndTheEndOfACutTitleIsNeverMet() {
        #expect(TitlePattern.matches("interview", "An INTERVIEW with"))
        #expect(!TitlePattern.matches("^interview", "An interview"))
        #expect(!TitlePattern.matches("end$", String(repeating: "x", count: TitlePattern.matchedLength) + " end"))
        #expect(TitlePattern.matches("x$", String(repeating: "x", count: TitlePattern.matchedLength)))
        #expect(!TitlePattern.matches("x$", String(repeating: "x", count: TitlePattern.matchedLength + 1)))
        #expect(TitlePattern.matches("(?x) q \\ & \\ a  # spaces are left out, escaped ones kept", "Q & A"))
        #expect(!TitlePattern.matches("[^a]", "A") && TitlePattern.matches("[a-z]", "É") == false && TitlePattern.matches("[à-ÿ]", "É"))
    }

    /// What makes a backtracking engine take exponential time (the pattern; seconds
    /// at 25 characters, for ever at 40) is judged here in one pass: the test ends under the
    /// suite's hang limit, whatever the machine.
    @Test(arguments: [40, 10_000]) func theWorstShapesAreJudgedInOnePass(_ length: Int) throws {
        let title = String(repeating: "a", count: length)
        for pattern in ["(?x)(a+) +b", "(a|a)*b", "(a*)*b", "(?:a?){50}a{50}b", "(?:[a-z]+\\w*)+\\d"] {
            let compiled = try #require(TitlePattern(pattern), "\(pattern)")
            #expect(!compiled.matches(title), "\(pattern)")
            #expect(compiled.matches(String(repeating: "a", count: 60) + "b1"), "\(pattern)")
        }
    }

    @Test func aRefusedPatternInASubmissionChangesNothing() throws {
        var submission = PreferencesSubmission(autoDownload: true)
        submission.exclude = "(a)\\1"
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
