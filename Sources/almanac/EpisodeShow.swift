import AlmanacWire
import AlmanacViews
import ArgumentParser
import FoundationEssentials

/// `almanac episode show ID [--json]`: one episode in full, from the daemon's
/// `GetEpisodeDetails`: title, podcast, date, length, progress, the show notes as text with
/// their links numbered and listed, chapters with their start times, people and art.
struct EpisodeShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Shows an episode in full: show notes with their links, chapters, people and art.",
        discussion: """
            The show notes are printed as text wrapped to the terminal, with the number of each link after the words it was on ("clouds[1]") and the links listed by number below. Chapters come from the episode's chapters file (<podcast:chapters>, fetched by the daemon the first time and kept) or from Podlove Simple Chapters in the feed; when the file cannot be used, the episode still shows and a note says why. Addresses are printed whole, never cut. Episodes kept before Almanac kept show notes have them after the podcast's next refresh.

            --json prints one object: the keys of `almanac episodes --json` and publishedDay, season, episode, episodeType, explicit, link, image, podcastImage, detailsKnown, description (HTML), descriptionText, notes (the text with link numbers), links [{number, url}], chapters [{startTime (seconds), startText, title, url, image, link}], chaptersSource ("json", "feed" or null), chaptersNote, persons [{name, role, href, image}] and transcripts [{url, type, language}]; null where there is no value.
            """
    )

    @ArgumentParser.Argument(help: ArgumentHelp("An episode id, as `almanac episodes` lists them.", valueName: "id"))
    var id: String
    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in
            let record = try await client.episodeRecord(id)
            let view = EpisodeDetailViewData(record: record, now: clockNow(), clockOffset: localUTCOffset(at:))
            let terminal = Terminal()
            if common.json {
                terminal.line(Rendering.json(view))
                return
            }
            for line in view.lines(width: terminal.width) { terminal.line(terminal.render(line)) }
        }
    }
}
