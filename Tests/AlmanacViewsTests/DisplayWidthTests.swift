@testable import AlmanacViews
import TestHarness
import Testing

/// Terminal columns of text, and padding and cutting by them.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DisplayWidthTests {
    @Test(arguments: [
        ("", 0), ("Berlin", 6), ("9.7°C", 5), ("· 14:05", 7),
        // East Asian wide: two columns each.
        ("東京", 4), ("서울", 4), ("ｶﾀｶﾅ", 4), ("ＡＢ", 4), ("中a", 3),
        // Emoji presentation by default: two; text presentation by default: one.
        ("⛅", 2), ("🌧\u{FE0F}", 2), ("👍🏽", 2), ("👩‍👩‍👧", 2), ("🇩🇪", 2), ("☀", 1), ("🌦", 1), ("❄", 1),
        // VARIATION SELECTOR-16 asks for the emoji, -15 for the text.
        ("☀\u{FE0F}", 2), ("🌦\u{FE0F}", 2), ("❄\u{FE0F}", 2), ("⛅\u{FE0E}", 1), ("1\u{FE0F}\u{20E3}", 2),
        // Combining marks and format characters take none.
        ("e\u{301}", 1), ("\u{301}", 0), ("Zoë", 3), ("Ame\u{301}lie", 6), ("a\u{200B}b", 2), ("\u{1B}", 0),
    ])
    func columns(_ text: String, _ expected: Int) {
        #expect(displayWidth(text) == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func paddingCountsColumnsNotCharacters() {
        #expect(padded("⛅", to: 3) == "⛅ ")
        #expect(padded("☀", to: 3) == "☀  ")
        #expect(padded("東京", to: 6, alignment: .right) == "  東京")
        #expect(padded("e\u{301}", to: 3) == "e\u{301}  ")
        #expect(displayWidth(padded("🌦\u{FE0F} Rain", to: 12)) == 12)
    }

    @Test func truncationEndsInAnEllipsisAndNeverSplitsAWideCharacter() {
        #expect(truncated("Partly cloudy", to: 20) == "Partly cloudy")
        #expect(truncated("Partly cloudy", to: 8) == "Partly…")
        #expect(truncated("Partly cloudy", to: 7) == "Partly…")
        // "東京都" is six columns: in five there is room for one character and the ellipsis.
        #expect(truncated("東京都", to: 5) == "東京…")
        #expect(truncated("東京都", to: 4) == "東…")
        #expect(displayWidth(truncated("⛅⛅⛅", to: 4)) == 3)
        #expect(truncated("Café\u{301}", to: 4) == "Café\u{301}")
        #expect(truncated("abc", to: 1) == "…")
        #expect(truncated("abc", to: 0) == "")
        #expect(displayWidth(padded("東京都", to: 5)) == 5)
    }

    @Test func styledLinesKeepTheirStylesWhenCut() {
        let line = StyledLine("Berlin", .bold) + "  " + StyledLine("9.7°C", .dim)
        #expect(line.width == 13)
        let cut = line.truncated(to: 10)
        #expect(cut.plain == "Berlin  9…" && cut.width == 10)
        #expect(cut.spans.first == Span("Berlin", .bold) && cut.spans.last?.style == .dim)
        // Cut just after a span: no spaces before the ellipsis.
        #expect(line.truncated(to: 9).plain == "Berlin…")
        #expect(line.padded(to: 15).plain == "Berlin  9.7°C  ")
        #expect((line + "   ").trimmingTrailingSpaces() == line)
    }
}
