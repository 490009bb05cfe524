import AlmanacWire
import AlmanacViews
import ArgumentParser

/// `almanac episode transcript ID [--json]`: an episode's transcript, a line per segment
/// with the time it is said.
struct EpisodeTranscript: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcript",
        abstract: "Prints an episode's transcript, with the time of each line.",
        discussion: """
            The transcript is the one the episode's feed names (<podcast:transcript>), fetched by the daemon the first time and kept: of several, the first Podcasting 2.0 JSON one, else WebVTT, else SRT, else HTML (which has no times). Each line is its time (12:31, 1:02:03), the speaker when the transcript names one, and the words; `almanac episode play ID --at 12:31` plays from there. It fails, saying why, when the feed names no transcript Almanac reads or the file could not be fetched or read.

            --json prints one object: id, url, format, timed, segments [{startTime (seconds), endTime, startText, speaker, text}]; null where there is no value.
            """
    )

    @ArgumentParser.Argument(help: ArgumentHelp("An episode id, as `almanac episodes` lists them.", valueName: "id"))
    var id: String
    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in
            let view = TranscriptViewData(transcript: try await client.transcript(id), episodeID: id)
            let terminal = Terminal()
            if common.json {
                terminal.line(Rendering.json(view.json))
                return
            }
            for line in view.lines { terminal.textLine(line) }
        }
    }
}
