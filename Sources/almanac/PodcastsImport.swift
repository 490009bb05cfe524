import AlmanacBus
import ArgumentParser
import DBus
import Glibc

/// `almanac podcasts import FILE`: subscribes to every feed an OPML file lists.
struct PodcastsImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Subscribes to every feed an OPML file lists (the daemon reads each feed; four at a time).",
        discussion: "Prints the feeds subscribed; feeds that could not be read are listed on standard error, and the exit status is then 65."
    )

    @ArgumentParser.Argument(help: "An OPML file, as podcast apps export them.")
    var file: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        guard let bytes = PodcastsInspect.read(file) else {
            Terminal.error("cannot read '\(file)': \(String(cString: strerror(errno)))")
            throw ExitCode(66)
        }
        try await withClient(common) { client in
            let (subscribed, failed) = try await client.importOPML(bytes)
            if common.json {
                Terminal().line(Rendering.json(["subscribed": subscribed, "failed": failed] as Rendering.JSONObject))
            } else {
                for url in subscribed { Terminal().line("subscribed  \(url)") }
                for (url, reason) in failed.sorted(by: { $0.key < $1.key }) { Terminal.error("not subscribed: \(url): \(reason)") }
            }
            if !failed.isEmpty { throw Exit.refused }
        }
    }
}
