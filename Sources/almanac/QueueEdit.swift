import AlmanacModels
import AlmanacWire
import ArgumentParser

/// `almanac queue add|remove|move|clear`: an edit of the queue, one change to the podcasts
/// document that every view hears; refused as a whole (nothing changes) when the daemon
/// refuses any part of it.
enum QueueEdit {
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Adds episodes at the end of the queue, or at its head with --next (in the order given).")
        @ArgumentParser.Argument(help: "Episode ids, as `almanac episodes` shows them.") var episodes: [String]
        @Flag(help: "Put them at the head of the queue (one queued already moves there too).") var next = false
        @OptionGroup var common: CommonOptions
        func validate() throws {
            guard !episodes.isEmpty else { throw ValidationError("Say which episodes to add: ids from `almanac episodes`.") }
        }
        /// Queues them, then says what was queued: every record in one call (`GetEpisodes`).
        func run() async throws {
            try await withClient(common) { client in
                _ = try await client.editQueue(.add(episodes, next: next))
                for (episode, podcastTitle) in try await client.episodes(episodes) {
                    Terminal().textLine("Queued: \(episode.title)" + (podcastTitle.map { " (\($0))" } ?? ""))
                }
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Takes episodes out of the queue.")
        @ArgumentParser.Argument(help: "Episode ids, as `almanac queue` shows them.") var episodes: [String]
        @OptionGroup var common: CommonOptions
        func validate() throws {
            guard !episodes.isEmpty else { throw ValidationError("Say which episodes to take out: ids from `almanac queue`.") }
        }
        func run() async throws { try await QueueEdit.submit(.remove(episodes), common) }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move", abstract: "Moves a queued episode to a position (1: the head; at most the queue's length).")
        @ArgumentParser.Argument(help: "An episode id, as `almanac queue` shows it.") var episode: String
        @ArgumentParser.Argument(help: "Where it goes: 1 is the head.") var position: Int
        @OptionGroup var common: CommonOptions
        func validate() throws {
            guard position >= 1 else { throw ValidationError("Positions count from 1 (the head), not \(position).") }
        }
        func run() async throws { try await QueueEdit.submit(.move(episode, to: position), common) }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Empties the queue.")
        @OptionGroup var common: CommonOptions
        func run() async throws { try await QueueEdit.submit(.clear, common) }
    }

    static func submit(_ edit: QueueSubmission, _ common: CommonOptions) async throws {
        try await withClient(common) { client in _ = try await client.editQueue(edit) }
    }
}
