import ArgumentParser

/// `almanac queue …`: the Up Next queue, which every client shares (part of the podcasts
/// document): listed, added to, taken from, reordered, emptied.
struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "The Up Next queue: list it, add, remove or move episodes, clear it.",
        discussion: """
            Every client of almanacd sees the same queue, and hears each edit at once (`almanac watch podcasts`). \
            A played episode leaves the queue; `almanac episode play --next` plays its head. A podcast whose \
            `auto-queue` setting is on (`almanac podcasts settings PODCAST auto-queue on`) adds its new episodes \
            by itself. The queue holds at most 1000 episodes.
            """,
        subcommands: [QueueList.self, QueueEdit.Add.self, QueueEdit.Remove.self, QueueEdit.Move.self, QueueEdit.Clear.self],
        defaultSubcommand: QueueList.self
    )
}
