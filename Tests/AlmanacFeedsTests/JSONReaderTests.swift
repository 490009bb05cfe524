import AlmanacFeeds
import Foundation
import TestHarness
import Testing

/// `JSONReader`: strict JSON, read a value at a time, and its limits kept while it reads.
@Suite(.onTestThreads, .timeLimit(.hang)) struct JSONReaderTests {
    static let roomy = JSONLimits(stringBytes: 1_000, items: 1_000, values: 10_000)

    func node(_ text: String, _ limits: JSONLimits = roomy) throws -> JSONNode {
        try JSONReader.node(Data(text.utf8), limits: limits)
    }

    @Test func readsEveryKindOfValue() throws {
        let read = try node(#" {"a": [1, -0.5e2, 3E+1, true, false, null], "b": {"c": "d"}, "": ""} "#)
        #expect(read == .object([
            .init(name: "a", value: .array([.number(1), .number(-50), .number(30), .bool(true), .bool(false), .null])),
            .init(name: "b", value: .object([.init(name: "c", value: .string("d"))])),
            .init(name: "", value: .string("")),
        ]))
        #expect(read["b"]?["c"]?.text() == "d" && read["a"]?.items.count == 6 && read["a"]?.items[3].bool == true)
        #expect(try node("12") == .number(12) && node(#""x""#) == .string("x"))
        // A byte-order mark before the value is allowed.
        #expect(try JSONReader.node(Data([0xEF, 0xBB, 0xBF]) + Data("[]".utf8), limits: Self.roomy) == .array([]))
    }

    @Test func decodesEscapes() throws {
        #expect(try node(#""a\"b\\c\/d\n\t\r\b\f""#) == .string("a\"b\\c/d\n\t\r\u{08}\u{0C}"))
        #expect(try node(#""\u00e9\u20AC\ud83d\ude00""#) == .string("é€😀"))
        // A lone surrogate is no character: the replacement character stands for it.
        #expect(try node(#""\ud83dx\udc00""#) == .string("\u{FFFD}x\u{FFFD}"))
    }

    @Test(arguments: ["", " ", "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[1e]", "{a:1}", "{\"a\" 1}", "[1 2]", "\"a\u{01}b\"",
                      "\"unterminated", "[", "{\"a\":", "tru", "nul", "[1] 2", "\"\\x\"", "\"\\u12G4\"", "[-]", "NaN", "[Infinity]"])
    func refusesWhatIsNotJSON(text: String) {
        let error = #expect(throws: JSONReadError.self) { try node(text) }
        #expect(error?.code == .syntax, "\(text): \(String(describing: error))")
    }

    @Test func nestingDeeperThanTheLimitIsRefusedWithoutRecursingForEver() throws {
        let limits = JSONLimits(depth: 64, stringBytes: 100, items: 100, values: 10_000)
        #expect(try node(String(repeating: "[", count: 64) + String(repeating: "]", count: 64), limits) != .null)
        for text in [String(repeating: "[", count: 65) + String(repeating: "]", count: 65), String(repeating: "[", count: 1_000_000)] {
            let error = #expect(throws: JSONReadError.self) { try node(text, limits) }
            #expect(error?.code == .tooDeep)
            // Read past as well as built: skipping counts the depth too.
            let skipped = #expect(throws: JSONReadError.self) { try JSONReader.read(Data(text.utf8), limits: limits) { try $0.skip() } }
            #expect(skipped?.code == .tooDeep)
        }
    }

    @Test func aLongStringIsCutAtACharactersBoundaryAndTheRestReadPast() throws {
        let limits = JSONLimits(stringBytes: 5, items: 100, values: 100)
        #expect(try node(#"["éééé", "abcdefgh", "ab\u00e9\u00e9\u00e9"]"#, limits) == .array([.string("éé"), .string("abcde"), .string("abé")]))
        // Names too.
        #expect(try node(#"{"abcdefgh": 1}"#, limits) == .object([.init(name: "abcde", value: .number(1))]))
    }

    @Test func itemsPastTheLimitAreReadPastButStillChecked() throws {
        let limits = JSONLimits(stringBytes: 100, items: 2, values: 100)
        #expect(try node("[1, 2, 3, [4], {\"a\": 5}]", limits) == .array([.number(1), .number(2)]))
        #expect(try node(#"{"a": 1, "b": 2, "c": 3}"#, limits) == .object([.init(name: "a", value: .number(1)), .init(name: "b", value: .number(2))]))
        let error = #expect(throws: JSONReadError.self) { try node("[1, 2, 3, [4,]]", limits) }
        #expect(error?.code == .syntax)
    }

    @Test func moreValuesThanTheLimitIsAnErrorNotAnEverGrowingTree() throws {
        let limits = JSONLimits(stringBytes: 100, items: 1_000, values: 1_000)
        let nested = "[" + Array(repeating: "[" + Array(repeating: "0", count: 100).joined(separator: ",") + "]", count: 100).joined(separator: ",") + "]"
        let error = #expect(throws: JSONReadError.self) { try node(nested, limits) }
        #expect(error?.code == .tooLarge && error?.message == "it holds more than 1000 values")
    }

    @Test func aPullReaderKeepsOnlyWhatItAsksFor() throws {
        // 8 MiB of `{"segments":[0,0,…]}`: walked element by element, nothing kept.
        let bomb = Data(("{\"version\":\"1\",\"segments\":[" + String(repeating: "0,", count: 4 * 1024 * 1024) + "{\"body\":\"last\"}]}").utf8)
        var seen = 0
        var bodies: [String] = []
        try JSONReader.read(bomb, limits: JSONLimits(stringBytes: 100, items: 0, values: 0)) { reader in
            try reader.members { reader, name in
                guard name == "segments" else { return }  // left unread: read past
                try reader.elements { reader in
                    seen += 1
                    guard try reader.kind() == .object else { return }
                    try reader.members { reader, name in
                        if name == "body", let body = try reader.stringIfAny() { bodies.append(body) }
                    }
                }
            }
        }
        #expect(seen == 4 * 1024 * 1024 + 1 && bodies == ["last"])
    }
}
