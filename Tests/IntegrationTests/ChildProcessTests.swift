import Foundation
import Testing
import TestHarness

/// The harness that starts every program the tests run.
@Suite(.onTestThreads, .timeLimit(.hang))
struct ChildProcessTests {
    /// A file the test process holds open without close-on-exec (as Foundation opens files) is
    /// not open in a child: a long-lived child holding another test's file open for writing
    /// once kept that test from remounting its folder read-only.
    @Test func aChildHoldsNothingOfTheTestProcessButItsThreeStreams() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-fd-\(UUID().uuidString)").path
        let held = open(path, O_WRONLY | O_CREAT, 0o600)
        try #require(held >= 0)
        defer { close(held); unlink(path) }
        let result = try Tool.run("sh", ["-c", "ls -l /proc/$$/fd"])
        #expect(result.status == 0)
        #expect(!result.output.contains(path), "the child holds \(path) open:\n\(result.output)")
        #expect(result.output.contains("/dev/null"), "the listing should show the child's own streams:\n\(result.output)")
    }
}
