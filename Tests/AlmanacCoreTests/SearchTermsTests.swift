import AlmanacModels
import TestHarness
import Testing

/// `SearchTerms`: a search read by Almanac's own rules (never as SQLite's syntax), and the
/// bounds that keep one search from asking for unbounded work.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SearchTermsTests {
    func term(_ text: String, column: String? = nil, prefix: Bool = false) -> SearchTerms.Term {
        SearchTerms.Term(text: text, column: column, prefix: prefix)
    }

    @Test func wordsPhrasesPrefixesChoicesExclusionsAndParts() throws {
        let terms = try SearchTerms("compost \"heaps and worms\" garden* mulch OR straw NOT weeds title:spring notes:\"late frost\"")
        #expect(terms.groups == [[term("compost")], [term("heaps and worms")], [term("garden", prefix: true)], [term("mulch"), term("straw")],
                                 [term("spring", column: "title")], [term("late frost", column: "notes")]])
        #expect(terms.excluded == [term("weeds")])
        #expect(terms.namesColumn)
        #expect(try !SearchTerms("compost").namesColumn)
    }

    /// What SQLite's syntax would read as operators is a character of a word here; a lone
    /// operator, an open quote and lowercase `or` are words or text as typed; `AND` between
    /// words says what a space says.
    @Test(arguments: [
        ("NEAR(compost heaps, 1000)", [["NEAR(compost"], ["heaps,"], ["1000)"]]),
        ("OR compost", [["OR"], ["compost"]]),
        ("compost NOT", [["compost"], ["NOT"]]),
        ("compost AND heaps AND", [["compost"], ["heaps"], ["AND"]]),
        ("AND compost", [["AND"], ["compost"]]),
        ("compost or mulch", [["compost"], ["or"], ["mulch"]]),
        ("\"compost heaps", [["compost heaps"]]),
        ("a\"b c", [["a\"b"], ["c"]]),
        ("^compost -mulch +straw {x y}: author:ann", [["^compost"], ["-mulch"], ["+straw"], ["{x"], ["y}:"], ["author:ann"]]),
    ])
    func whatSQLiteWouldReadAsSyntaxIsText(_ search: String, _ texts: [[String]]) throws {
        let terms = try SearchTerms(search)
        #expect(terms.groups.map { $0.map(\.text) } == texts)
        #expect(terms.excluded.isEmpty && !terms.namesColumn)
    }

    @Test func onlyPunctuationFindsNothing() throws {
        #expect(try SearchTerms("( ) - *").isEmpty)
    }

    @Test(arguments: [
        // The heavy query: twelve one-letter prefixes.
        ("a* b* c* d* e* f* g* h* i* j* k* l* NEAR(m n, 1000) OR o", "at least 3 letters before its '*'"),
        ("ga*", "at least 3 letters before its '*' ('ga*'"),
        ("gar* mul* str* com* wee*", "5 prefixes (word*); at most 4"),
        ((1...17).map { "w\($0)" }.joined(separator: " "), "holds 17 words; at most 16"),
        ("\"" + (1...17).map { "w\($0)" }.joined(separator: " ") + "\"", "holds 17 words; at most 16"),
    ])
    func searchesOverTheBoundsAreRefusedSayingWhatToChange(_ search: String, _ reason: String) {
        #expect {
            _ = try SearchTerms(search)
        } throws: { error in
            (error as? SubmissionError)?.message.contains(reason) == true
        }
    }

    @Test func theBoundsThemselvesAreTaken() throws {
        let words = try SearchTerms((1...16).map { "w\($0)" }.joined(separator: " "))
        #expect(words.groups.count == 16)
        let prefixes = try SearchTerms("gar* mul* str* \"late fro\"*")
        #expect(prefixes.groups.joined().filter(\.prefix).map(\.text) == ["gar", "mul", "str", "late fro"])
    }
}
