import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser
import DBus

/// `almanac podcasts subscribe URL…`.
struct PodcastsSubscribe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "subscribe", abstract: "Subscribes to feeds (the daemon reads each first); prints each podcast's id.",
                                                    discussion: "A web page's address works too when the page announces its feed (<link rel=\"alternate\" type=\"application/rss+xml\">), as browsers find them.")

    @ArgumentParser.Argument(help: "Feed URLs, or pages that announce their feed (http or https).")
    var urls: [String]

    @Option(help: ArgumentHelp("For a feed behind HTTP Basic authentication: the user name (the password is asked for, or read from standard input).", valueName: "name"))
    var username: String?

    @OptionGroup var output: OutputOptions<PodcastFields>
    var common: CommonOptions { output.common }

    func run() async throws {
        var urls = self.urls
        if let username {
            let host = urls.first.flatMap { $0.split(separator: "/").dropFirst().first }.map { " at \($0)" } ?? ""
            let password = try PasswordInput.read(prompt: "Password for \(username)\(host): ")
            urls = urls.map { FeedCredentials.adding(user: username, password: password, to: $0) }
        }
        try await withClient(common) { client in
            for url in urls {
                let id = try await client.subscribe(url)
                let podcast = try await client.subscriptions().first { $0.id == id }
                let title = podcast?.title ?? FeedCredentials.redacted(url)
                // The feed's address: a web page given leads to the feed it announces. Never its password.
                let feedURL = podcast?.feedURL ?? FeedCredentials.redacted(url)
                if common.json {
                    Terminal().line(Rendering.json(["id": id, "title": title, "feedURL": feedURL] as Rendering.JSONObject))
                } else if let template = output.rendering().template {
                    let preview = podcast.map { PodcastPreviewViewData(podcast: $0) }
                    Terminal().line(template.render(preview?.fields ?? ["id": id, "title": title, "feedURL": feedURL]))
                } else {
                    Terminal().textLine("\(id)  \(title)")
                }
            }
        }
    }
}
