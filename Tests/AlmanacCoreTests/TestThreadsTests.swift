import Foundation
import Locking
import TestHarness
import Testing

/// The harness's own rules for running tests: every suite runs on `TestThreads`, and that
/// pool never makes a job wait for a thread, so a test that blocks its thread holds up no one.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TestThreadsTests {
    /// The threads tasks ran on (`nil`: one not of `TestThreads`).
    final class ThreadsSeen: Sendable {
        let threads = Locked<[UInt?]>([])
        func note() { threads.withLock { $0.append(TestThreads.shared.currentThread) } }
    }

    /// Two child tasks of one test, the first blocking its thread until the second has run:
    /// with a pool of fixed width (Swift's global one has a thread per core) enough such
    /// tests at once would wait for each other forever; here the second gets a thread of its own.
    @Test func aBlockedTestThreadHoldsUpNoOtherTask() async {
        let ran = DispatchSemaphore(value: 0)
        let seen = ThreadsSeen()
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                seen.note()
                // Blocks this thread, as a test waiting for a child process does.
                return ran.wait(timeout: .now() + 60) == .success
            }
            group.addTask {
                seen.note()
                ran.signal()
                return true
            }
            for await finished in group { #expect(finished) }
        }
        let threads = seen.threads.withLock { $0 }
        #expect(threads.count == 2 && threads.allSatisfy { $0 != nil }, "the test's tasks ran on \(threads)")
        #expect(Set(threads).count == 2, "both tasks ran on one thread: \(threads)")
    }

    /// Every suite in Tests/ names `.onTestThreads` and a time limit for hangs only, and every
    /// struct of tests is a `@Suite`: a suite left on the global executor would bring back
    /// the starved runs of a busy machine (docs/test-harness.md).
    @Test func everySuiteRunsOnTestThreadsWithAHangLimit() throws {
        let folder = SourceTree.root.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 50)
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() {
                let attribute = line.drop { $0 == " " }
                if attribute.hasPrefix("@Suite"), !line.contains(".onTestThreads") || !line.contains(".timeLimit(.hang)") {
                    offenders.append("\(file):\(index + 1)")
                }
                if attribute.hasPrefix("@Test"), line.contains(".timeLimit("), !line.contains(".timeLimit(.hang)") {
                    offenders.append("\(file):\(index + 1)")
                }
                if line.hasPrefix("struct "), line.contains("Tests"), !lines[max(0, index - 3)..<index].contains(where: { $0.contains("@Suite") }) {
                    offenders.append("\(file):\(index + 1)")
                }
            }
        }
        #expect(offenders.isEmpty, "suites not on test threads, or with a time limit other than .hang: \(offenders)")
    }
}
