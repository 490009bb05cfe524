import AlmanacServices
import Foundation
import TestHarness
import Testing

/// Partial downloads no job resumes are removed at start; everything else stays.
@Suite(.onTestThreads, .timeLimit(.hang))
struct LeftoverDownloadsTests {
    @Test func onlyTemporaryFilesNoJobResumesAreRemoved() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("leftovers-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let show = root + "/A Show"
        try FileManager.default.createDirectory(atPath: show, withIntermediateDirectories: true)
        let files = [
            ".e1.3.part",       // a kept job's: resumed
            ".e2.7.part",       // a job no longer kept
            ".e3.part",         // an older Almanac's name
            "Episode 1.mp3",    // a finished download
            ".hidden",          // not ours
            "notes.part",       // not hidden: not a temporary download
        ]
        for name in files { #expect(FileManager.default.createFile(atPath: show + "/" + name, contents: Data("x".utf8))) }
        #expect(FileManager.default.createFile(atPath: root + "/.top.1.part", contents: Data("x".utf8)))  // not in a show's folder

        let removed = LeftoverDownloads.remove(under: root, keeping: [show + "/.e1.3.part"])

        #expect(removed == [show + "/.e2.7.part", show + "/.e3.part"])
        let left = try FileManager.default.contentsOfDirectory(atPath: show).sorted()
        #expect(left == [".e1.3.part", ".hidden", "Episode 1.mp3", "notes.part"])
        #expect(FileManager.default.fileExists(atPath: root + "/.top.1.part"))
        // A missing root is nothing to do, not an error.
        #expect(LeftoverDownloads.remove(under: root + "/none", keeping: []).isEmpty)
    }
}
