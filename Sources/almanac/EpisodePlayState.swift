import AlmanacWire
import ArgumentParser
import DBus

/// The play-state subcommands of `almanac episode`; each submits one change to the podcasts
/// document, which every view hears.
enum EpisodePlayState {
    struct Played: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "played", abstract: "Marks episodes played; --all [PODCAST] marks every one.")
        @ArgumentParser.Argument(help: "Episode ids, as `almanac episodes` shows them; with --all, at most one podcast (id or feed URL).") var episodes: [String] = []
        @Flag(help: "Mark every episode played (of the podcast given, else of all), in one change.") var all = false
        @OptionGroup var common: CommonOptions

        func validate() throws {
            if all, episodes.count > 1 { throw ValidationError("--all takes at most one podcast, not \(episodes.count) names.") }
            if !all, episodes.isEmpty { throw ValidationError("Say which episodes: ids from `almanac episodes`, or --all [PODCAST].") }
        }

        func run() async throws {
            guard all else { return try await submit(episodes, ["played": .boolean(true)], common) }
            var change: [String: Value] = ["allPlayed": .boolean(true)]
            if let podcast = episodes.first { change["podcast"] = .string(podcast) }
            try await withClient(common) { client in _ = try await client.submit(.podcasts, change) }
        }
    }

    struct Unplayed: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unplayed", abstract: "Marks episodes unplayed, from the start.")
        @ArgumentParser.Argument(help: "Episode ids, as `almanac episodes` shows them.") var episodes: [String]
        @OptionGroup var common: CommonOptions
        func run() async throws { try await submit(episodes, ["played": .boolean(false), "position": .double(0)], common) }
    }

    struct Position: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "position", abstract: "Sets where to resume an episode, in seconds or as [HH:]MM:SS.")
        @ArgumentParser.Argument(help: "An episode id.") var episode: String
        @ArgumentParser.Argument(help: "Seconds (754) or a clock reading (12:34, 1:02:03).") var position: String
        @OptionGroup var common: CommonOptions

        func validate() throws {
            guard Self.seconds(position) != nil else { throw ValidationError("'\(position)' is not a position: give seconds (754) or [HH:]MM:SS (12:34).") }
        }

        func run() async throws { try await submit([episode], ["position": .double(Self.seconds(position) ?? 0)], common) }

        /// "754" → 754, "12:34" → 754, "1:02:03" → 3723; `nil` for anything else.
        static func seconds(_ text: String) -> Double? {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard (1...3).contains(parts.count) else { return nil }
            var total = 0.0
            for (index, part) in parts.enumerated() {
                guard let value = Double(part), value.isFinite, value >= 0, index == 0 || value < 60 else { return nil }
                total = total * 60 + value
            }
            return total
        }
    }

    static func submit(_ episodes: [String], _ change: [String: Value], _ common: CommonOptions) async throws {
        try await withClient(common) { client in
            for episode in episodes {
                var values = change
                values["episode"] = .string(episode)
                _ = try await client.submit(.podcasts, values)
            }
        }
    }
}
