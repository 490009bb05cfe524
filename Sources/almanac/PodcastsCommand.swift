import ArgumentParser

/// `almanac podcasts …`: subscriptions, refreshing, and reading a feed without subscribing.
struct PodcastsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "podcasts",
        abstract: "Podcast subscriptions: subscribe, unsubscribe, list, rename, refresh, each one's settings, import and export OPML, or inspect a feed without subscribing.",
        subcommands: [PodcastsList.self, PodcastsSearch.self, PodcastsSubscribe.self, PodcastsUnsubscribe.self, PodcastsRename.self, PodcastsRefresh.self,
                      PodcastsSettings.self, PodcastsImport.self, PodcastsExport.self, PodcastsInspect.self],
        defaultSubcommand: PodcastsList.self
    )
}
