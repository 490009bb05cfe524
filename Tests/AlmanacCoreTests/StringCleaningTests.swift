import AlmanacCore
import Testing

@Suite struct StringCleaningTests {
    @Test func trimmedDropsOuterWhiteSpaceOnly() {
        #expect("  \tLe Ciel  \n".trimmed == "Le Ciel")
        #expect("a  b".trimmed == "a  b")
        #expect(" \n ".trimmed == "")
    }

    @Test func printableLineTurnsControlCharactersIntoSpacesAndStopsAtTheLimit() {
        #expect("bytes 0-9/10\r\nX-Evil: 1".printableLine(maximumLength: 100) == "bytes 0-9/10  X-Evil: 1")
        #expect("\u{1B}[31mred\u{1B}[0m\u{85}".printableLine(maximumLength: 100) == " [31mred [0m ")
        #expect("Île-de-France ☂".printableLine(maximumLength: 100) == "Île-de-France ☂")
        #expect(String(repeating: "x", count: 600).printableLine(maximumLength: 500).count == 500)
    }
}
