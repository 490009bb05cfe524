import ArgumentParser

/// `almanac episode show|play|played|unplayed|position|download|keep|unkeep ID …`: an episode in full, its play state and its download.
struct EpisodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episode",
        abstract: "Shows an episode in full, plays it, marks it played or unplayed, sets where to resume it, downloads it, or keeps its download.",
        subcommands: [EpisodeShow.self, EpisodeTranscript.self, EpisodePlay.self, EpisodePlayState.Played.self, EpisodePlayState.Unplayed.self, EpisodePlayState.Position.self,
                      EpisodeDownload.self, EpisodeKeeping.Keep.self, EpisodeKeeping.Unkeep.self]
    )
}
