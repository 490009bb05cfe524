import AlmanacWire
import AlmanacModels
import AlmanacFeeds
import AlmanacViews
import ArgumentParser
import DBus
import FoundationEssentials
import Glibc

/// `almanac podcasts inspect URL|FILE`: reads a feed without subscribing and prints what is in
/// it. A file is read and parsed here (the parser has no networking: `AlmanacFeeds`), so it
/// needs no daemon and no bus limit applies; a URL is fetched by the daemon (the CLI does no
/// network I/O), which hands the feed's bytes over by descriptor to be parsed here. With
/// `--json`, the JSON is written straight from the parsed feed.
struct PodcastsInspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Reads a feed (a URL, or a file) without subscribing, and prints what is in it.",
        discussion: "A file is parsed here, without the daemon; a URL (or a web page that announces its feed) is fetched by almanacd. With --json, the whole feed with stable keys: title, link, description, image, newFeedURL, nextPageURL, episodes[] (guid, title, link, description, published in Unix seconds, duration in seconds, enclosures[] with url, length, type) and the rest."
    )

    @ArgumentParser.Argument(help: "An http(s) URL, or the path of a feed file.")
    var source: String

    @Option(help: "How many of the newest episodes to list.")
    var episodes = 10

    @OptionGroup var output: OutputOptions<FeedEpisodeFields>
    var common: CommonOptions { output.common }

    /// The largest file read (a feed of 100,000 long episodes is a few hundred MB).
    static let maximumFileBytes = 1 << 30

    func run() async throws {
        let isURL = source.hasPrefix("http://") || source.hasPrefix("https://")
        let bytes: [UInt8]
        var baseURL: String?
        if isURL {
            var fetched: FetchedFeed?
            try await withClient(common) { client in fetched = try await client.fetchFeed(url: source) }
            guard let fetched else { return }
            bytes = fetched.body
            baseURL = fetched.baseURL
        } else {
            bytes = try Self.read(source)
        }
        let feed: ParsedFeed
        do {
            feed = try FeedParser.parse(bytes, feedURL: baseURL)
        } catch {
            throw Self.notAFeed(error, isURL ? source : "'\(source)'")
        }
        if common.json {
            // DEL and C1 escaped as \u00XX, as every --json line of the CLI has them.
            var json = Rendering.escapingC1Controls(FeedJSON.bytes(feed))
            json.append(UInt8(ascii: "\n"))
            Terminal.write(1, bytes: json)
            return
        }
        for line in output.rendering().feed(FeedPreviewViewData(feed: feed, now: clockNow(), newest: episodes)) { Terminal().line(line) }
    }

    /// What the parser said, in the CLI's voice: its first sentence, then what to do.
    static func notAFeed(_ error: FeedParseError, _ what: String) -> CLIError {
        let sentences = error.message.split(separator: ". ", maxSplits: 1).map(String.init)
        let hint = sentences.count > 1 ? sentences[1] : "give the path or address of an RSS, Atom or RDF feed"
        return CLIError.refused("\(what) is not a feed that can be read: \(CLIError.clause(sentences[0]))", hint, name: error.errorName.rawValue)
    }

    /// The whole file at `path` (a regular file, or a pipe such as `<(curl …)` or
    /// `/dev/stdin`), at most `maximumFileBytes`; a folder or a missing file is refused with
    /// exit status 66.
    static func read(_ path: String) throws -> [UInt8] {
        func unreadable(_ reason: String) -> CLIError {
            CLIError(message: "cannot read '\(path)': \(reason)", hint: "give a feed's http(s) URL or the path of a feed file", exit: 66)
        }
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw unreadable(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable(String(cString: strerror(errno))) }
        if status.st_mode & S_IFMT == S_IFDIR { throw unreadable(String(cString: strerror(EISDIR))) }
        guard status.st_size <= maximumFileBytes else {
            throw unreadable("it has \(status.st_size) bytes, more than the \(maximumFileBytes >> 20) MiB a feed may have")
        }
        // A regular file's size is known: read into place. A pipe's is read until it ends, a
        // chunk at a time, each copied on whole (not grown element by element).
        let regular = status.st_mode & S_IFMT == S_IFREG
        var bytes = [UInt8](repeating: 0, count: regular ? Int(status.st_size) : 0)
        var chunk = [UInt8](repeating: 0, count: regular ? 0 : 1 << 20)
        var count = 0
        while !regular || count < bytes.count {
            let read = regular
                ? bytes.withUnsafeMutableBufferPointer { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
                : chunk.withUnsafeMutableBufferPointer { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw unreadable(String(cString: strerror(errno))) }
            if read == 0 { break }
            count += read
            guard !regular else { continue }
            guard count <= maximumFileBytes else { throw unreadable("it is longer than the \(maximumFileBytes >> 20) MiB a feed may have") }
            chunk.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<read])) }
        }
        if regular { bytes.removeLast(bytes.count - count) }
        return bytes
    }
}
