import AlmanacCore
import AlmanacModels
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct StringCleaningTests {
    @Test func trimmedDropsOuterWhiteSpaceOnly() {
        #expect("  \tLe Ciel  \n".trimmed == "Le Ciel")
        #expect("a  b".trimmed == "a  b")
        #expect(" \n ".trimmed == "")
        #expect("\u{00A0}Caf\u{00E9}\u{2003}\r\n".trimmed == "Caf\u{00E9}", "no-break and em spaces are white space too")
        #expect("é".trimmed == "é" && "x".trimmed == "x" && "".trimmed == "" && " 日本 ".trimmed == "日本")
        #expect("  Le Ciel  "[...].dropFirst(1).trimmed == "Le Ciel", "a substring")
    }

    @Test func printableLineTurnsControlCharactersIntoSpacesAndStopsAtTheLimit() {
        #expect("bytes 0-9/10\r\nX-Evil: 1".printableLine(maximumLength: 100) == "bytes 0-9/10  X-Evil: 1")
        #expect("\u{1B}[31mred\u{1B}[0m\u{85}".printableLine(maximumLength: 100) == " [31mred [0m ")
        #expect("Île-de-France ☂".printableLine(maximumLength: 100) == "Île-de-France ☂")
        #expect(String(repeating: "x", count: 600).printableLine(maximumLength: 500).count == 500)
    }

    @Test func controlCharactersAreFoundAndStripped() {
        for control in ["\u{1B}", "\n", "\t", "\u{7F}", "\u{85}", "\u{9B}", "\u{0}"] {
            #expect("a\(control)b".hasControlCharacters, "\(control.debugDescription)")
            #expect("a\(control)b".strippingControlCharacters() == "ab")
        }
        #expect(!"Île-de-France \u{A0}☂ 日本".hasControlCharacters, "no-break space and other non-ASCII are text")
        #expect("one\n\ttwo\u{1B}[2J\r".strippingControlCharacters(keepingLineBreaks: true) == "one\n\ttwo[2J")
        #expect("plain".strippingControlCharacters() == "plain")
    }
}
