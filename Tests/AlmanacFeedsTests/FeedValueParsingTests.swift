import AlmanacModels
@testable import AlmanacFeeds
import TestHarness
import Testing

/// The small parsers the feed reader uses for dates, durations, numbers, URLs and HTML text.
@Suite(.onTestThreads, .timeLimit(.hang)) struct FeedParserValueTests {
    static let sixThirty: Int64 = 1_704_781_800 // 2024-01-09 06:30:00 UTC

    @Test(arguments: [
        ("Tue, 09 Jan 2024 06:30:00 GMT", 0),
        ("Tue, 09 Jan 2024 06:30:00 UTC", 0),
        ("Tue, 09 Jan 2024 06:30:00 Z", 0),
        ("Tue, 09 Jan 2024 06:30:00 EST", 5 * 3600),
        ("Tue, 09 Jan 2024 06:30:00 EDT", 4 * 3600),
        ("Tue, 09 Jan 2024 06:30:00 CST", 6 * 3600),
        ("Tue, 09 Jan 2024 06:30:00 CDT", 5 * 3600),
        ("Tue, 09 Jan 2024 06:30:00 MST", 7 * 3600),
        ("Tue, 09 Jan 2024 06:30:00 MDT", 6 * 3600),
        ("Tue, 09 Jan 2024 06:30:00 PST", 8 * 3600),
        ("Tue, 09 Jan 2024 06:30:00 PDT", 7 * 3600),
        ("Tue, 09 Jan 2024 06:30:00 CET", -3600),
        ("Tue, 09 Jan 2024 06:30:00 +0100", -3600),
        ("Tue, 09 Jan 2024 06:30:00 -05:30", 5 * 3600 + 1800),
        ("Tue, 09 Jan 2024 06:30:00 +01", -3600),
        ("Tue, 09 Jan 2024 06:30:00 GMT+0100", -3600),
        ("Tue, 9 Jan 2024 6:30:00 GMT", 0),
        ("09 Jan 2024 06:30 GMT", 0),
        ("Tuesday, 09-Jan-24 06:30:00 GMT", 0),
        ("Jan 9 2024 06:30:00 GMT", 0),
        ("Tue, 09 Jan 2024 06:30:00.000 GMT", 0),
        ("Tue, 09 Sept 2024 06:30:00 GMT", 244 * 86400),
        ("Tue, 09 Jan 2024 06:30:00 GMT garbage 12345", 0),
        ("2024-01-09T06:30:00Z", 0),
        ("2024-01-09T06:30Z", 0),
        ("2024-01-09t06:30:00z", 0),
        ("2024-01-09T06:30:00.123456Z", 0),
        ("2024-01-09T07:30:00+01:00", 0),
        ("2024-01-09T07:30:00+0100", 0),
        ("2024-01-09T01:30:00-05", 0),
        ("2024-01-09 06:30:00", 0),
    ])
    func parsesDates(text: String, offsetFromSixThirty: Int) {
        #expect(FeedDate.unixTime(text) == Self.sixThirty + Int64(offsetFromSixThirty))
    }

    @Test func twoDigitYearsBefore50AreThisCentury() {
        #expect(FeedDate.unixTime("01 Jan 70 00:00:00 GMT") == 0)
        #expect(FeedDate.unixTime("01 Jan 49 00:00:00 GMT") == FeedDate.unixTime("2049-01-01"))
        #expect(FeedDate.unixTime("29 Feb 2024") == FeedDate.unixTime("2024-02-29T00:00:00Z"))
        #expect(FeedDate.unixTime("1969-12-31T23:59:59Z") == -1)
    }

    @Test(arguments: [
        "", "   ", "yesterday", "Tue, 09 Jan", "09 Foo 2024 06:30:00 GMT", "32 Jan 2024", "29 Feb 2023",
        "Tue, 09 Jan 2024 25:00:00 GMT", "Tue, 09 Jan 2024 06:61:00 GMT", "2024-13-01", "2024-00-10",
        "2024-01-09T06:30:00+25:00", "2024-01-09T6", "12:30:00", "\u{FFFD}\u{FFFD}", "9999999999999999999999",
    ])
    func refusesWhatIsNotADate(text: String) {
        #expect(FeedDate.unixTime(text) == nil)
    }

    @Test func daysFromCivilAgreesWithKnownDates() {
        #expect(CalendarDay.daysSinceEpoch(year: 1970, month: 1, day: 1) == 0)
        #expect(CalendarDay.daysSinceEpoch(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CalendarDay.daysSinceEpoch(year: 1600, month: 1, day: 1) == -135_140)
    }

    @Test(arguments: [
        ("3600", 3600.0), ("45:30", 2730), ("1:02:03", 3723), ("01:02:03.25", 3723.25), (" 7 ", 7), ("0.5", 0.5), (".5", 0.5),
    ])
    func parsesDurations(text: String, seconds: Double) {
        var text = text
        #expect(text.withUTF8 { FeedValue.duration($0) } == seconds)
    }

    @Test(arguments: ["", "-1", "1:-2", "abc", "1h30m", "1:2:3:4", ":30", "30:", "1::2", "1.2.3", "1:30 min"])
    func refusesGarbledDurations(text: String) {
        var text = text
        #expect(text.withUTF8 { FeedValue.duration($0) } == nil)
    }

    @Test func parsesCountsAndFlagsLeniently() {
        func integer(_ text: String) -> Int64? {
            var text = text
            return text.withUTF8 { FeedValue.integer($0) }
        }
        #expect(integer(" 42 ") == 42)
        #expect(integer("+7") == 7)
        #expect(integer("3.0") == 3)
        #expect(integer("-3") == nil)
        #expect(integer("12 MB") == nil)
        #expect(integer("99999999999999999999") == nil)
        func explicit(_ text: String) -> Bool? {
            var text = text
            return text.withUTF8 { FeedValue.explicit($0) }
        }
        #expect(explicit("Yes") == true && explicit("true") == true && explicit(" explicit ") == true)
        #expect(explicit("no") == false && explicit("FALSE") == false && explicit("clean") == false)
        #expect(explicit("maybe") == nil)
    }

    @Test(arguments: [
        ("https://a.example/b/c/feed.xml", "d.mp3", "https://a.example/b/c/d.mp3"),
        ("https://a.example/b/c/feed.xml", "../d.mp3", "https://a.example/b/d.mp3"),
        ("https://a.example/b/c/feed.xml", "../../../../d.mp3", "https://a.example/d.mp3"),
        ("https://a.example/b/c/feed.xml", "./d/./e/../f", "https://a.example/b/c/d/f"),
        ("https://a.example/b/c/feed.xml", "/d", "https://a.example/d"),
        ("https://a.example/b/c/feed.xml", "//cdn.example/x", "https://cdn.example/x"),
        ("https://a.example/b/c/feed.xml?p=1#top", "?p=2", "https://a.example/b/c/feed.xml?p=2"),
        ("https://a.example/b/c/feed.xml?p=1", "#frag", "https://a.example/b/c/feed.xml?p=1#frag"),
        ("https://a.example", "x.mp3", "https://a.example/x.mp3"),
        ("https://a.example/b/", "..", "https://a.example/"),
        ("https://a.example/b/", "  http://other.example/x  ", "http://other.example/x"),
        ("https://a.example/b/", "mailto:someone@example.com", "mailto:someone@example.com"),
    ])
    func resolvesRelativeReferences(base: String, reference: String, expected: String) {
        #expect(URLResolver(base: base).resolve(reference) == expected)
    }

    @Test func keepsReferencesAsWrittenWithoutABase() {
        #expect(URLResolver(base: nil).resolve(" a/b.mp3 ") == "a/b.mp3")
        #expect(URLResolver(base: "not a url").resolve("a/b.mp3") == "a/b.mp3")
        #expect(URLResolver(base: nil).resolve("   ") == nil)
    }

    @Test(arguments: [
        ("<p>One</p><p>Two</p>", "One\n\nTwo"),
        ("a<br>b<br/>c", "a\nb\nc"),
        ("<ul><li>x</li><li>y</li></ul>", "x\ny"),
        ("  lots   of\n\n\t space  ", "lots of space"),
        ("a &lt; b &amp;&amp; c &gt; d", "a < b && c > d"),
        ("a < b and <3", "a < b and <3"),
        ("<script>var x = '<p>';</script>Shown<style>p { }</style>", "Shown"),
        ("<!-- hidden -->Visible", "Visible"),
        (#"<a href="x>y">link</a>"#, "link"),
        ("Unclosed <b tag", "Unclosed <b tag"),
        ("&nbsp;padded&nbsp;", "padded"),
        ("&#8217;&#x2019;&#146;", "’’’"),
    ])
    func turnsHTMLIntoPlainText(html: String, text: String) {
        #expect(HTMLText.plainText(html) == text)
    }

    @Test func singleLineTextHasNoBreaks() {
        #expect(HTMLText.plainText("<p>One</p><p>Two<br>Three</p>", singleLine: true) == "One Two Three")
    }
}
