@testable import AlmanacViews
import TestHarness
import Testing

/// What the CLI's renderer gives a terminal of data that still holds control characters
/// (a library kept before the daemon removed them, another program's data): the characters
/// shown, never sent — in lines, tables and templates.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ControlCharacterDisplayTests {
    static let hostile = "Clip\u{1B}]52;c;cm0=\u{07}board \u{1B}[2J\u{9B}31m\u{7F}\r\nend"

    @Test func controlCharactersAreShownAsPictures() {
        #expect(Self.hostile.visibleControlCharacters() == "Clip␛]52;c;cm0=␇board ␛[2J\u{FFFD}31m␡␍␊end")
        #expect("a\tb\nc\u{1B}".visibleControlCharacters(keepingLineBreaks: true) == "a\tb\nc␛")
        #expect("Café ☂ 日本".visibleControlCharacters() == "Café ☂ 日本")
    }

    @Test func aStyledLineNeverHoldsAControlCharacter() {
        let line = StyledLine(Self.hostile, .bold) + StyledLine(" more")
        #expect(!line.plain.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(line.plain.hasPrefix("Clip␛]52;"))
        // Each picture is one column, so the layout's widths stay true.
        #expect(line.width == line.plain.count)
        let table = Table([TableColumn("Title")], rows: [[StyledLine(Self.hostile)]])
        for text in table.lines(width: 40, header: true).map(\.plain) {
            #expect(!text.contains("\u{1B}") && !text.contains("\u{9B}"), "\(text.debugDescription)")
        }
    }

    @Test func aTemplateShowsTheControlsOfItsFieldsNotOfItsOwnText() throws {
        let template = try Template("\u{1B}[1m{{title}}\u{1B}[0m {{notes}}")
        let rendered = template.render(["title": Self.hostile, "notes": "one\ntwo\t\u{1B}"])
        #expect(rendered == "\u{1B}[1mClip␛]52;c;cm0=␇board ␛[2J\u{FFFD}31m␡␍\nend\u{1B}[0m one\ntwo\t␛")
    }
}
