import AlmanacCore
import AlmanacFeeds
import AlmanacServices
import Glibc
import AlmanacModels

/// Feed parsing throughput: FeedParser over feeds already in memory, in MB/s.
struct ParseBenchmark {
    let folder: String
    let seconds: Double
    let every: Int

    func run() throws {
        let feeds = try Self.read(folder).enumerated().filter { $0.offset % max(every, 1) == 0 }.map(\.element)
        guard !feeds.isEmpty else { throw BenchmarkFailure("no *.xml feeds in \(folder)") }
        let size = feeds.reduce(0) { $0 + $1.count }
        _ = try FeedParser.parse(feeds[0])
        var passes = 0
        var episodes = 0
        let start = AlmanacBench.now()
        var elapsed = 0.0
        repeat {
            var found = 0
            for feed in feeds { found += try FeedParser.parse(feed).episodes.count }
            if passes == 0 { episodes = found }
            passes += 1
            elapsed = AlmanacBench.now() - start
        } while elapsed < seconds
        print("bytes \(size * passes) seconds \(elapsed) rate \(Double(size * passes) / elapsed / 1e6) episodes \(episodes)")
    }

    /// The files of `folder` whose names end in `.xml`, sorted by name, as bytes.
    static func read(_ folder: String) throws -> [[UInt8]] {
        guard let directory = opendir(folder) else { throw BenchmarkFailure("cannot open \(folder)") }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasSuffix(".xml") { names.append(name) }
        }
        return try names.sorted().map { name in
            guard let file = fopen(folder + "/" + name, "rb") else { throw BenchmarkFailure("cannot read \(name)") }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = fread(&buffer, 1, buffer.count, file)
                if count == 0 { break }
                bytes.append(contentsOf: buffer[..<count])
            }
            return bytes
        }
    }
}
