/// Why a benchmark could not run; `almanac-bench` prints it and exits 1.
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
