import ArgumentParser

/// `almanac podcasts …`: the podcast library. (Subscriptions arrive with the library; for
/// now, `inspect` reads any feed without subscribing.)
struct PodcastsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "podcasts",
        abstract: "Podcast feeds: inspect one without subscribing.",
        subcommands: [PodcastsInspect.self]
    )
}
