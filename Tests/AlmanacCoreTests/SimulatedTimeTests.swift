import AlmanacModels
import Foundation
import TestHarness
import Testing

/// `SimulatedTime`: what the simulated clock's file may hold, read strictly and never whole
/// when it is long.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SimulatedTimeTests {
    @Test(arguments: [("1774612800", 1_774_612_800.0), (" 1774612800\n", 1_774_612_800.0), ("1774612800.25", 1_774_612_800.25),
                      ("0", 0.0), ("253402300799", 253_402_300_799.0), ("1.123456789", 1.123456789)])
    func aTimeIsRead(text: String, seconds: Double) {
        #expect(SimulatedTime.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["", " ", "tomorrow", "-1", "+1", "1e9", "nan", "inf", "0x10", "253402300800", "9999999999999",
                      "1.1234567891", "1774612800.", ".5", "1 2", "1774612800\u{0}", "１２３", "1_000"])
    func anythingElseIsNoTime(text: String) {
        #expect(SimulatedTime.parse(text) == nil)
    }

    @Test func aLongFileIsNotReadWhole() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simulated-time-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("clock").path
        try Data("1774612800\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(SimulatedTime.read(at: path) == Date(timeIntervalSince1970: 1_774_612_800))
        try Data(("1774612800" + String(repeating: " ", count: 100)).utf8).write(to: URL(fileURLWithPath: path))
        #expect(SimulatedTime.text(at: path) == nil && SimulatedTime.read(at: path) == nil)
        #expect(SimulatedTime.read(at: folder.appendingPathComponent("absent").path) == nil)
        #expect(SimulatedTime.read(at: folder.path) == nil, "a folder is no time")
        #expect(SimulatedTime.path(in: [SimulatedTime.variable: ""]) == nil)
        #expect(SimulatedTime.path(in: [SimulatedTime.variable: path]) == path)
    }
}
