import ArgumentParser

/// `almanac sync …`: the two-way sync of subscriptions and play state with a
/// gpodder.net-compatible server (gpodder.net, mygpo, opodsync, Nextcloud gPodder Sync).
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Shares subscriptions and play state with a gpodder.net or Nextcloud gPodder Sync server: login, now, status, logout.",
        discussion: """
            Once logged in, almanacd syncs by itself: soon after a change here, every 15 minutes \
            (almanacd --sync-interval), and again after a failure, waiting longer each time. \
            Changes wait in the state file until the server has them. docs/sync.md lists what is sent.
            """,
        subcommands: [SyncLogin.self, SyncNow.self, SyncStatusCommand.self, SyncLogout.self],
        defaultSubcommand: SyncStatusCommand.self
    )
}
