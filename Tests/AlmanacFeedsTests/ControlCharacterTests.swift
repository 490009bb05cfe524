@testable import AlmanacFeeds
import Foundation
import TestHarness
import Testing
import AlmanacModels

/// A feed cannot command the reader's terminal: control characters — raw, as character
/// references (`&#27;`), inside CDATA, as C1 bytes — are gone from everything the parser
/// gives, and the notes keep their paragraphs.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ControlCharacterTests {
    /// Every string in `value`, however deep.
    static func strings(in value: Any) -> [String] {
        if let text = value as? String { return [text] }
        return Mirror(reflecting: value).children.flatMap { strings(in: $0.value) }
    }

    static func controls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0.isControlCharacter && $0 != "\n" }
    }

    @Test func noControlCharacterReachesAnyFieldOfTheParsedFeed() throws {
        let feed = try FeedFixtures.parse("control-characters.xml", feedURL: "http://127.0.0.1:9/feeds/control-characters.xml")
        let strings = Self.strings(in: feed)
        #expect(strings.count > 15)
        for text in strings {
            #expect(Self.controls(in: text).isEmpty, "\(text.debugDescription)")
        }
        // What is left is the words, one line for titles, paragraphs for the notes.
        #expect(feed.title == "Evil ]0;pwnedShow [2J31mNow")
        #expect(feed.author == "Mallory ]8;;https://evil.example\\link]8;;\\")
        let first = try #require(feed.episodes.first)
        #expect(first.title == "Clip]52;c;cm0gLXJmIH4=board [2J twice")
        #expect(first.descriptionText == "Notes ]8;;http://evil.example/\\a link]8;;\\ then [2J and 2J and\n\nSecond ]0;title paragraph")
        #expect(first.chapters.map(\.title) == ["Intro [2J", "Later 31m"])
        // The second episode's title is its file's name, percent-decoded: %1B and %07 go too.
        #expect(feed.episodes.last?.displayTitle == "]0;pwnednamed")
    }

    @Test func characterReferencesToControlsAreDropped() throws {
        for reference in ["&#27;", "&#x1b;", "&#X1B;", "&#127;", "&#129;", "&#x8d;", "&#x9D;", "&#7;", "&#0008;"] {
            let feed = try FeedParser.parse(Array("<rss><channel><title>a\(reference)b</title><item><title>x&amp;\(reference.dropFirst())y</title><guid>1</guid></item></channel></rss>".utf8))
            #expect(feed.title == "ab", "\(reference)")
            #expect(feed.episodes.first?.title == "xy", "\(reference) escaped twice")
        }
        // White space and Windows-1252's printable C1 code points stay what they were.
        let feed = try FeedParser.parse(Array("<rss><channel><title>a&#9;b&#10;c&#150;d&#155;</title></channel></rss>".utf8))
        #expect(feed.title == "a b c\u{2013}d\u{203A}")
    }

    @Test func htmlTextDropsControlsButKeepsLineBreaks() {
        #expect(HTMLText.plainText("<p>one\u{1B}[2J</p><p>two\u{85}\u{9B}1m\u{7F}</p>") == "one[2J\n\ntwo1m")
        #expect(HTMLText.plainText("a&#27;]0;x&#7;b", singleLine: true) == "a]0;xb")
    }
}
