import AlmanacModels
import Foundation
import TestHarness
import Testing

/// The daemon reads the time from its one clock (`WallClock`) and real durations from
/// `RealTime`, nowhere else (issue 41): a `Date()` or a `Task.sleep` left in a daemon's module
/// would run on the computer's clock when a test runs almanacd on a simulated one. And the
/// simulated clock is for tests alone: nothing almanacd ships with selects it.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ClockReadsTests {
    /// The daemon's modules (AlmanacWire: its codecs run in the daemon too).
    static let modules = ["almanacd/", "AlmanacBus/", "AlmanacServices/", "AlmanacCore/", "AlmanacDemo/", "AlmanacWire/"]
    /// Where the clocks themselves read the computer's.
    static let clocks = "AlmanacCore/Clock/"
    /// What reads the computer's time or sleeps on it, besides the clocks.
    static var reads: [(name: String, pattern: Regex<Substring>)] { [
        ("Date()", /Date\(\)/), ("Date.init", /Date\.init\b/), ("Date.now", /Date\.now\b/),
        ("timeIntervalSinceNow", /timeIntervalSinceNow/), ("Task.sleep", /Task\.sleep\b/),
        ("ContinuousClock.now", /ContinuousClock\.now\b/), ("SuspendingClock", /SuspendingClock/),
        ("a bare .now", /[\s(,=\[]\.now\b/), ("asyncAfter", /asyncAfter/), ("DispatchTime", /DispatchTime|DispatchWallTime|\.now\(\)/),
        ("a C clock", /clock_gettime|gettimeofday|\btime\(nil\)/),
    ] }

    /// Whether `code` reads a thread's or the process's processor time (a search's budget),
    /// which no clock, real or simulated, stands for.
    static func readsProcessorTime(_ code: Substring) -> Bool {
        code.contains("CLOCK_THREAD_CPUTIME_ID") || code.contains("CLOCK_PROCESS_CPUTIME_ID")
    }

    /// Words every read above holds one of.
    static let hints = ["Date", "sleep", "now", "Now", "SuspendingClock", "asyncAfter", "Dispatch", "clock_gettime", "gettimeofday", "time("]

    @Test func theDaemonsModulesReadTheTimeOnlyFromTheirClock() throws {
        let sources = SourceTree.path("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources)).compactMap { $0 as? String }
            .filter { file in file.hasSuffix(".swift") && Self.modules.contains { file.hasPrefix($0) } && !file.hasPrefix(Self.clocks) }
        #expect(files.count > 200, "the sources were found: \(files.count)")
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                // Only lines that could hold a read are matched (the patterns are slow on 60,000 lines).
                guard Self.hints.contains(where: { code.contains($0) }) else { continue }
                for read in Self.reads where code.contains(read.pattern) && !Self.readsProcessorTime(code) {
                    found.append("\(file):\(number + 1): \(read.name): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(found.isEmpty, "read the time from the part's WallClock (or RealTime for a real peer's durations):\n\(found.joined(separator: "\n"))")
    }

    /// The check finds what it looks for (a check that cannot fail proves nothing).
    @Test func theCheckFindsEachRead() {
        let lines = ["let now = Date()", "clock: () -> Date = Date.init", "try await Task.sleep(for: .seconds(1))",
                     "let start = ContinuousClock.now", "last = .now", "queue.asyncAfter(deadline: x)", "deadline.timeIntervalSinceNow"]
        for line in lines {
            #expect(Self.hints.contains { line.contains($0) } && Self.reads.contains { line.contains($0.pattern) }, "\(line)")
        }
        #expect(!Self.reads.contains { "let now = clock.now".contains($0.pattern) })
        #expect(Self.readsProcessorTime("clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)"))
        #expect(!Self.readsProcessorTime("clock_gettime(CLOCK_REALTIME, &now)"))
        #expect(!Self.reads.contains { "RealTime.now + .seconds(2)".contains($0.pattern) })
    }

    /// The unit, the D-Bus activation file and the package never set the simulated clock.
    @Test func nothingShippedSelectsTheSimulatedClock() throws {
        let shipped = ["systemd/almanacd.service", "systemd/org.almanac.Almanac1.service", "packaging/deb/control.in", "packaging/man/almanacd.extra.roff"]
        for file in shipped {
            let text = try String(contentsOfFile: SourceTree.path(file), encoding: .utf8)
            #expect(!text.contains(SimulatedTime.variable), "\(file)")
            if file.hasPrefix("systemd/") { #expect(!text.contains("Environment"), "\(file) sets no environment (a simulated clock could hide there)") }
        }
    }
}
