import AlmanacBus
import AlmanacViews
import ArgumentParser
import DBus
import FoundationEssentials
import Glibc

/// `almanac podcasts inspect URL|FILE`: the daemon reads and parses a feed; nothing is subscribed.
struct PodcastsInspect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Reads a feed (a URL, or a file) without subscribing, and prints what the daemon makes of it.",
        discussion: "With --json, the whole feed with stable keys: title, link, description, image, newFeedURL, nextPageURL, episodes[] (guid, title, link, description, published in Unix seconds, duration in seconds, enclosures[] with url, length, type) and the rest."
    )

    @ArgumentParser.Argument(help: "An http(s) URL, or the path of a feed file.")
    var source: String

    @Option(help: "How many of the newest episodes to list.")
    var episodes = 10

    @OptionGroup var output: OutputOptions<FeedEpisodeFields>
    var common: CommonOptions { output.common }

    func run() async throws {
        let isURL = source.hasPrefix("http://") || source.hasPrefix("https://")
        var file: UnixFD?
        if !isURL {
            guard let opened = Self.open(source) else {
                throw CLIError(message: "cannot read '\(source)': \(String(cString: strerror(errno)))", hint: "give a feed's http(s) URL or the path of a feed file", exit: 66)
            }
            file = opened
        }
        let client = try await common.connect()
        do {
            let feed = if let file { try await client.inspect(file: file, baseURL: "") } else { try await client.inspect(url: source) }
            await client.connection.close()
            if common.json {
                Terminal().line(Rendering.json(JSONValue(feed)))
                return
            }
            guard let parsed = FeedCodec.decode(feed) else {
                throw CLIError.refused("the daemon answered with something that is not a feed", "check that almanacd and almanac are the same version (`almanac status`)")
            }
            for line in output.rendering().feed(FeedPreviewViewData(feed: parsed, now: Date(), newest: episodes)) { Terminal().line(line) }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }

    /// The file opened for reading, to pass to the daemon by descriptor, or `nil` with
    /// `errno` set; a folder is refused here (`EISDIR`), as reading it would be. What is
    /// not a regular file (a pipe, `/dev/stdin`, `<(curl …)`) is read here and passed as a
    /// sealed memory file, since the daemon reads only files that cannot keep it waiting.
    static func open(_ path: String) -> UnixFD? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let file = UnixFD(taking: descriptor)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return file
        case S_IFDIR:
            errno = EISDIR
            return nil
        default:
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(descriptor, &chunk, chunk.count)
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { return nil }
                if count == 0 { break }
                bytes.append(contentsOf: chunk[0..<count])
            }
            return try? UnixFD.sealedMemory(containing: bytes, name: "almanac-input")
        }
    }
}
