import AlmanacWire
import AlmanacModels
import ArgumentParser
import DBus
import Glibc

/// `almanac podcasts import FILE`: subscribes to every feed an OPML file lists.
struct PodcastsImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Subscribes to every feed an OPML file lists (the daemon reads each feed; sixteen at a time, two from one server).",
        discussion: "Prints each feed as subscribed or already subscribed; feeds that could not be read are listed on standard error, and the exit status is then 65."
    )

    @ArgumentParser.Argument(help: "An OPML file, as podcast apps export them.")
    var file: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        guard let opml = InputFile.descriptor(file) else {
            throw CLIError(message: "cannot read '\(file)': \(String(cString: strerror(errno)))", hint: "give the path of an OPML file, as podcast apps export them", exit: 66)
        }
        try await withClient(common) { client in
            // The daemon answers with every feed it holds, old ones too: what was there before
            // is told apart here (by feed URL, or by the id a moved feed keeps).
            let before = try await client.subscriptions()
            let known = Set(before.map(\.feedURL)).union(before.map(\.id))
            let (subscribed, failed) = try await client.importOPML(file: opml)
            let already = subscribed.filter { known.contains($0) || known.contains(FeedMapping.podcastID(feedURL: $0)) }
            let added = subscribed.filter { !already.contains($0) }
            if common.json {
                Terminal().line(Rendering.json(["subscribed": added, "alreadySubscribed": already, "failed": failed] as Rendering.JSONObject))
            } else {
                for url in added { Terminal().textLine("subscribed          \(url)") }
                for url in already { Terminal().textLine("already subscribed  \(url)") }
            }
            let reasons = failed.sorted(by: { $0.key < $1.key })
            for (url, reason) in reasons.dropLast() { Terminal.error("not subscribed: \(url): \(reason)", hint: Self.hint(url)) }
            if let (url, reason) = reasons.last {
                throw CLIError.refused("not subscribed: \(url): \(reason)", Self.hint(url))
            }
        }
    }

    private static func hint(_ url: String) -> String {
        "check the feed with `almanac podcasts inspect \(url)`, or subscribe to it later with `almanac podcasts subscribe`"
    }
}
