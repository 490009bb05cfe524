import AlmanacModels
import AlmanacViews
import AlmanacWire
import ArgumentParser

/// `almanac stats [--days N] [--json]`: how long was listened to, per podcast and per day
/// (`Podcasts1.GetListeningStats`), from what media players played.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Shows how long you listened, per podcast and per day.",
        discussion: """
            Counted from the positions of the media players almanacd watches (MPRIS) while \
            they play an episode: what a player plays, at its speed; not a seek, a jump back \
            or a time the player was paused. Days are local days, today the last of them.
            """
    )

    @ArgumentParser.Option(help: ArgumentHelp("How many days, today among them: 1 to \(ListeningTotal.maximumDays).", valueName: "n"))
    var days = 7

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard (1...ListeningTotal.maximumDays).contains(days) else {
            throw ValidationError("--days is a number of days from 1 (today) to \(ListeningTotal.maximumDays), not \(days).")
        }
    }

    func run() async throws {
        try await withClient(common) { client in
            let stats = ListeningStatsViewData(try await client.listeningStats(days: days), days: days)
            let rendering = common.rendering()
            let lines: [String]
            if common.json {
                lines = [Rendering.json(stats)]
            } else if stats.podcasts.isEmpty {
                lines = [rendering.fitted("Nothing listened to " + (days == 1 ? "today" : "in the last \(days) days")
                                          + ": time counts while a media player plays an episode of your podcasts.")]
            } else {
                lines = [rendering.fitted(stats.heading, .bold), ""] + rendering.render(.listeningPodcasts(stats))
                    + [""] + rendering.render(.listeningDays(stats))
            }
            for line in lines { Terminal().line(line) }
        }
    }
}
