import ArgumentParser

/// `almanac backup [list] | now`: the backups of the library almanacd keeps.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Lists the backups of the library almanacd keeps, or takes one now.",
        discussion: """
            almanacd copies the whole library (subscriptions, play state, queue, history, \
            transcripts, settings) into $XDG_STATE_HOME/almanac/backups once a day, before \
            its schema changes and before a restore, and keeps the newest 7 \
            (`almanac settings set backups-kept N`). `almanac restore` brings one back.
            """,
        subcommands: [BackupList.self, BackupNow.self],
        defaultSubcommand: BackupList.self
    )
}
