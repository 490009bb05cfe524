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
        var bytes: [UInt8] = []
        if !isURL {
            guard let contents = Self.read(source) else {
                throw CLIError(message: "cannot read '\(source)': \(String(cString: strerror(errno)))", hint: "give a feed's http(s) URL or the path of a feed file", exit: 66)
            }
            bytes = contents
        }
        let client = try await common.connect()
        do {
            let feed = isURL ? try await client.inspect(url: source) : try await client.inspect(bytes: bytes, baseURL: "")
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

    /// The file's bytes, or `nil` with `errno` set (plain POSIX: Foundation's file APIs
    /// would pull ICU into the CLI).
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
