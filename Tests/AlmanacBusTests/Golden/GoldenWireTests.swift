import DBus
import Foundation
import TestHarness
import Testing

/// The contract's values keep their bytes: every state, change kind, view update and reply
/// value of both documents, the player's, the sync's and the downloads', marshalled by our
/// DBus layer, equal the golden files taken before the codecs became `Codable`
/// conformances; and each reads back, through a marshalled message, as what was encoded.
/// `GOLDEN_RECORD=1` writes the files anew (docs/test-harness.md, "Golden wire bytes").
@Suite(.onTestThreads, .timeLimit(.hang)) struct GoldenWireTests {
    static let groups: [String: [GoldenCase]] = [
        "weather": GoldenCases.weather, "podcasts": GoldenCases.podcasts, "episodes": GoldenCases.episodes,
        "player": GoldenCases.player, "sync": GoldenCases.sync, "downloads": GoldenCases.downloads,
    ]

    static let allCases: [GoldenCase] = groups.keys.sorted().flatMap { group in
        groups[group, default: []].map { GoldenCase("\(group)/\($0.name)", value: $0.value, decodes: $0.decodes) }
    }

    @Test(arguments: groups.keys.sorted())
    func bytesAreAsRecorded(_ group: String) throws {
        let cases = Self.groups[group, default: []]
        #expect(Set(cases.map(\.name)).count == cases.count, "every case of a group has a name of its own")
        if GoldenWire.recording {
            try GoldenWire.file(group, cases).write(toFile: GoldenWire.path(group), atomically: true, encoding: .utf8)
            return
        }
        let recorded = GoldenWire.entries(in: try String(contentsOfFile: GoldenWire.path(group), encoding: .utf8))
        #expect(Set(recorded.keys) == Set(cases.map(\.name)), "the golden file records exactly these cases")
        for golden in cases {
            let entry = try GoldenWire.entry(golden)
            #expect(entry == recorded[golden.name], "\(group)/\(golden.name) is not the bytes recorded:\n\(entry)")
        }
    }

    @Test(arguments: allCases)
    func readsBackAsEncoded(_ golden: GoldenCase) throws {
        let message = try Message(marshalled: try GoldenWire.message(golden.value))
        #expect(try golden.decodes(message))
    }
}

/// The values of the golden files, by group (`GoldenCases+Weather.swift` and the others).
enum GoldenCases {
    static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }
    static let second = date(1_800_000_000)
}
