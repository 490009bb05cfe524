import AlmanacBus
import AlmanacCore
import ArgumentParser
import DBus

/// `almanac podcasts subscribe URL…`.
struct PodcastsSubscribe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "subscribe", abstract: "Subscribes to feeds (the daemon reads each first); prints each podcast's id.")

    @ArgumentParser.Argument(help: "Feed URLs (http or https).")
    var urls: [String]

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in
            for url in urls {
                let id = try await client.subscribe(url)
                let title = try await client.subscriptions().first { $0.id == id }?.title ?? url
                Terminal().line(common.json ? Rendering.json(["id": id, "title": title, "feedURL": url] as Rendering.JSONObject) : "\(id)  \(title)")
            }
        }
    }
}
