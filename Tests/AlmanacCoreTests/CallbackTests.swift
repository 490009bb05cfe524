import AlmanacCore
import Foundation
import Locking
import TestHarness
import Testing

/// A closure kept in a lock is called as it was given, however often it is taken out
/// (`Callback`): a bare closure grew by two nested thunks at every `withLock { $0 }`. And no
/// lock in the sources keeps a bare closure.
@Suite(.onTestThreads, .timeLimit(.hang)) struct CallbackTests {
    @Test func aCallbackKeptInALockIsCalledThroughTheSameStackEveryTime() {
        let depths = Locked<[Int]>([])
        let kept = Locked<Callback?>(Callback { depths.withLock { $0.append(Thread.callStackReturnAddresses.count) } })
        for _ in 0..<1_000 { kept.withLock { $0 }?() }
        let seen = depths.withLock { $0 }
        #expect(seen.count == 1_000)
        #expect(seen.first == seen.last, "called through \((seen.last ?? 0) - (seen.first ?? 0)) more frames at the 1,000th call")
    }

    /// No bare function type (nor an optional of one) is kept in `Locked` or `Mutex` anywhere
    /// in the sources: each `withLock { $0 }` would wrap it in two more thunks. The clock
    /// follower's work count did, read every few milliseconds: `make soak`'s daemon grew all
    /// month (issue 41); the bus's error rule did, read at every error reply.
    @Test func noLockInTheSourcesKeepsABareClosure() throws {
        let sources = SourceTree.path("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(files.count > 300, "the sources were found: \(files.count)")
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.keepsABareClosure(line) {
                found.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(found.isEmpty, "keep the closure in a struct (Callback, or one of the type's own):\n\(found.joined(separator: "\n"))")
    }

    /// The check finds what it looks for, and passes a closure kept in a struct or an array.
    @Test func theCheckFindsABareClosure() {
        for line in ["let busy = Locked<(@Sendable () -> Int)?>(nil)", "let running = Locked<@Sendable () -> [String]>({ [] })",
                     "let rule = Locked<(@Sendable (any Error) -> BusError)?>(nil)", "let m = Mutex<(() throws -> Void)?>(nil)"] {
            #expect(Self.keepsABareClosure(Substring(line)), "\(line)")
        }
        for line in ["let kept = Locked<Callback?>(nil)", "let handlers = Locked<[@Sendable (BusName) -> Void]>([])",
                     "/// A bare function type stored in `Locked<(@Sendable () -> Void)?>`", "let state = Locked<State>(State())"] {
            #expect(!Self.keepsABareClosure(Substring(line)), "\(line)")
        }
    }

    /// Whether the code of `line` (not a comment) names a `Locked` or `Mutex` of a function type.
    static func keepsABareClosure(_ line: Substring) -> Bool {
        // Only lines that name a lock are matched (the pattern is slow on 60,000 lines).
        guard line.contains("Locked<") || line.contains("Mutex<") else { return false }
        let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return code.contains(/(Locked|Mutex)<\(*\s*(@Sendable\s+)?(@escaping\s+)?\([^()]*\)\s*(async\s+)?(throws\s*)?->/)
    }
}
