@testable import AlmanacFeeds
import AlmanacModels
import Foundation
import TestHarness
import Testing

/// Transcripts as podcast hosts write them — WebVTT, SRT, Podcasting 2.0 JSON, HTML — with
/// what real files carry (a byte-order mark, CRLF, cue settings, times without hours,
/// overlapping cues, markup and speakers in cues), and files that are not transcripts at all.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TranscriptParserTests {
    static func parse(_ text: String, _ format: TranscriptFormat) throws -> [TranscriptSegment] {
        try TranscriptParser.parse(Data(text.utf8), format: format)
    }

    @Test func webVTTWithBOMCRLFSettingsAndSpeakersReadsEachCue() throws {
        let file = "\u{FEFF}WEBVTT - Episode 12\r\nKind: captions\r\n\r\nNOTE made by a robot\r\nof some kind\r\n\r\nSTYLE\r\n::cue { color: red }\r\n\r\n"
            + "intro\r\n00:00:01.000 --> 00:00:04.500 align:start position:10%\r\n<v Ada Lovelace>Welcome to <i>the</i> show &amp; more.</v>\r\n\r\n"
            + "12:31.250 --> 12:35.000\r\n<v.host Grace>We talk about <c.yellow>compost</c> heaps\r\nand worms.\r\n\r\n"
            + "1:02:03 --> 1:02:05\r\n<00:01.000>Goodbye\r\n"
        let segments = try Self.parse(file, .vtt)
        #expect(segments == [
            TranscriptSegment(start: 1, end: 4.5, speaker: "Ada Lovelace", text: "Welcome to the show & more."),
            TranscriptSegment(start: 751.25, end: 755, speaker: "Grace", text: "We talk about compost heaps and worms."),
            TranscriptSegment(start: 3_723, end: 3_725, speaker: nil, text: "Goodbye"),
        ])
    }

    @Test func overlappingAndUnorderedCuesAreOrderedByStart() throws {
        let file = "WEBVTT\n\n00:10.000 --> 00:20.000\nsecond\n\n00:05.000 --> 00:15.000\nfirst\n\n00:05.000 --> 00:06.000\nalso first\n"
        #expect(try Self.parse(file, .vtt).map(\.text) == ["first", "also first", "second"])
    }

    @Test func aCueWithABadTimeOrNoWordsIsSkipped() throws {
        let file = "WEBVTT\n\n00:xx.000 --> 00:20.000\nbroken\n\n00:01.000 --> 00:02.000\n<i></i>\n\n00:03.000 --> 00:04.000\nkept\n"
        #expect(try Self.parse(file, .vtt).map(\.text) == ["kept"])
    }

    @Test func controlCharactersInACueAreGone() throws {
        let file = "WEBVTT\n\n00:01.000 --> 00:02.000\nred \u{1B}[31malert\u{07}\n"
        let text = try #require(try Self.parse(file, .vtt).first).text
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test func subRipWithCRLFAndTagsReadsEachCue() throws {
        let file = "1\r\n00:00:01,000 --> 00:00:04,000\r\n<i>Hello</i> there\r\n\r\n2\r\n00:01:02,500 --> 00:01:03,000 X1:100 X2:200\r\n<font color=\"red\">General</font> Kenobi\r\n"
        #expect(try Self.parse(file, .srt) == [
            TranscriptSegment(start: 1, end: 4, text: "Hello there"),
            TranscriptSegment(start: 62.5, end: 63, text: "General Kenobi"),
        ])
    }

    @Test func podcastingJSONJoinsWordsIntoPhrases() throws {
        let file = """
            {"version": "1.0.0", "segments": [
              {"speaker": "Ada", "startTime": 0.5, "endTime": 0.9, "body": "Compost"},
              {"speaker": "Ada", "startTime": "1.0", "endTime": 1.3, "body": "heaps."},
              {"speaker": "Ada", "startTime": 2, "endTime": 3, "body": "Worms"},
              {"speaker": "Bob", "startTime": 3.1, "body": "Yes"},
              {"speaker": "Bob", "startTime": null, "body": "lost"},
              {"speaker": 7, "startTime": 5, "body": "Long sentence, said at once."}
            ]}
            """
        #expect(try Self.parse(file, .json) == [
            TranscriptSegment(start: 0.5, end: 1.3, speaker: "Ada", text: "Compost heaps."),
            TranscriptSegment(start: 2, end: 3, speaker: "Ada", text: "Worms"),
            TranscriptSegment(start: 3.1, speaker: "Bob", text: "Yes"),
            TranscriptSegment(start: 5, speaker: nil, text: "Long sentence, said at once."),
        ])
    }

    @Test func htmlGivesParagraphsWithoutTimes() throws {
        let file = "<html><head><style>p{}</style></head><body><p><cite>Ada:</cite> Hello &amp; welcome</p><p>Second <b>paragraph</b></p><script>alert(1)</script></body></html>"
        #expect(try Self.parse(file, .html) == [
            TranscriptSegment(start: nil, text: "Ada: Hello & welcome"),
            TranscriptSegment(start: nil, text: "Second paragraph"),
        ])
    }

    @Test(arguments: [
        ("<html><body>Not found</body></html>", TranscriptFormat.vtt),
        ("", .vtt),
        ("just some words", .srt),
        ("[1, 2, 3]", .json),
        ("{\"segments\": [{\"body\": \"no time\"}]}", .json),
        ("<html></html>", .html),
    ])
    func aFileThatIsNotATranscriptIsRefused(text: String, format: TranscriptFormat) {
        #expect(throws: TranscriptParseError.self) { try Self.parse(text, format) }
    }

    @Test func aHugeCueIsCut() throws {
        let file = "WEBVTT\n\n00:01.000 --> 00:02.000\n" + String(repeating: "word ", count: 10_000) + "\n"
        let text = try #require(try Self.parse(file, .vtt).first).text
        #expect(text.count <= TranscriptParser.maximumSegmentLength + 1)
    }

    @Test func timedFormatsArePreferredAndUnknownOnesIgnored() throws {
        let links = [
            FeedTranscript(url: "https://a.example/t.html", type: "text/html"),
            FeedTranscript(url: "https://a.example/t.txt", type: "text/plain"),
            FeedTranscript(url: "https://a.example/t.srt", type: "application/x-subrip"),
            FeedTranscript(url: "https://a.example/t.vtt", type: "text/vtt; charset=utf-8"),
        ]
        #expect(TranscriptFormat.preferred(among: links)?.link.url == "https://a.example/t.vtt")
        #expect(TranscriptFormat.preferred(among: [FeedTranscript(url: "https://a.example/t.json")])?.format == .json)
        #expect(TranscriptFormat.preferred(among: [FeedTranscript(url: "https://a.example/t.pdf", type: "application/pdf")]) == nil)
    }
}
