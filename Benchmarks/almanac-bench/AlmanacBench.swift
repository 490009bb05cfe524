// The Swift side of `make bench` (Benchmarks/run.py drives it; see docs/performance.md):
//
//   almanac-bench getstate ADDRESS DESTINATION SECONDS
//       GetState of DESTINATION's weather document (almanacd's, or the C peer's), one call
//       after another, for SECONDS. Prints "calls N seconds T rate R".
//   almanac-bench parse FOLDER [SECONDS] [EVERY]
//       reads FOLDER's *.xml feeds (every EVERY-th file, default all) into memory, then
//       parses them all with FeedParser, again and again for at least SECONDS (default 2).
//       Prints "bytes B seconds T rate MBPS episodes E", as the Python peers do.
//   almanac-bench codec [SECONDS]
//       the codecs alone: each document's state and some changes encoded and decoded in
//       memory, SECONDS (default 1) a figure. Prints "NAME rate R" per figure.
//   almanac-bench titles FILE [SECONDS]
//       title patterns over FILE's titles (one a line), each matcher for at least SECONDS
//       (default 1): nanoseconds per title (TitleBenchmark).
import Glibc

@main
enum AlmanacBench {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch (arguments.first, arguments.count) {
            case ("getstate", 4):
                try await GetStateBenchmark(address: arguments[1], destination: arguments[2], seconds: Double(arguments[3]) ?? 2).run()
            case ("parse", 2...4):
                try ParseBenchmark(folder: arguments[1],
                                   seconds: arguments.count > 2 ? Double(arguments[2]) ?? 2 : 2,
                                   every: arguments.count > 3 ? Int(arguments[3]) ?? 1 : 1).run()
            case ("codec", 1...2):
                try CodecBenchmark(seconds: arguments.count > 1 ? Double(arguments[1]) ?? 1 : 1).run()
            case ("titles", 2...3):
                try TitleBenchmark(file: arguments[1], seconds: arguments.count > 2 ? Double(arguments[2]) ?? 1 : 1).run()
            default:
                warn("usage: almanac-bench getstate ADDRESS DESTINATION SECONDS | parse FOLDER [SECONDS] [EVERY] | codec [SECONDS] | titles FILE [SECONDS]")
                exit(64)
            }
        } catch {
            warn("almanac-bench: \(error)")
            exit(1)
        }
    }

    /// Writes a line to standard error.
    static func warn(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// Seconds on the monotonic clock.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
