import AlmanacWire
import ArgumentParser
import DBus

/// `almanac episode keep|unkeep ID…`: an episode's download kept out of every cleanup, or let
/// go again; each a change to the podcasts document, which every view hears.
enum EpisodeKeeping {
    struct Keep: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keep",
            abstract: "Keeps episodes' downloads: no cleanup deletes them (keep N, delete-played-after, delete-when-played).")
        @ArgumentParser.Argument(help: "Episode ids, as `almanac episodes` shows them.") var episodes: [String]
        @OptionGroup var common: CommonOptions
        func run() async throws { try await EpisodeKeeping.submit(episodes, kept: true, common) }
    }

    struct Unkeep: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unkeep", abstract: "Lets kept episodes go: their downloads are cleaned up like any other.")
        @ArgumentParser.Argument(help: "Episode ids, as `almanac episodes` shows them.") var episodes: [String]
        @OptionGroup var common: CommonOptions
        func run() async throws { try await EpisodeKeeping.submit(episodes, kept: false, common) }
    }

    static func submit(_ episodes: [String], kept: Bool, _ common: CommonOptions) async throws {
        try await withClient(common) { client in
            for episode in episodes { _ = try await client.submit(.podcasts, ["episode": .string(episode), "kept": .boolean(kept)]) }
        }
    }
}
