import AlmanacModels
import AlmanacViews
import AlmanacWire
import ArgumentParser
import FoundationEssentials

/// `almanac sleep 30m | --end-of-episode | --end-of-chapter | --cancel`: Almanac pauses the
/// player playing an episode then (`Player1.Sleep`, `CancelSleep`).
struct SleepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleep",
        abstract: "Pauses the media player playing an episode after a time, or at the end of the episode or chapter.",
        discussion: """
            almanac sleep 30m          pauses in 30 minutes (1s to 24h: 45s, 30m, 1h30m)
            almanac sleep --end-of-episode
            almanac sleep --end-of-chapter
            almanac sleep --cancel
            Pausing or stopping the player yourself cancels the timer. `almanac status`
            shows it. A player that leaves takes its timer with it.
            """
    )

    @ArgumentParser.Argument(help: ArgumentHelp("How long until the pause: 45s, 30m, 1h30m.", valueName: "time"))
    var time: String?

    @Flag(help: "Pause two seconds before the episode playing ends.")
    var endOfEpisode = false

    @Flag(help: "Pause where the next chapter begins.")
    var endOfChapter = false

    @Flag(help: "Cancel the sleep timer.")
    var cancel = false

    @OptionGroup var common: CommonOptions

    func validate() throws {
        let chosen = [time != nil, endOfEpisode, endOfChapter, cancel].filter { $0 }.count
        guard chosen == 1 else {
            throw ValidationError("Give one of a time (30m), --end-of-episode, --end-of-chapter or --cancel.")
        }
        if let time { _ = try Self.seconds(time) }
    }

    func run() async throws {
        try await withClient(common) { client in
            if cancel {
                let wasSet = try await client.cancelSleep()
                if common.json {
                    Terminal().line(Rendering.json(["cancelled": wasSet] as Rendering.JSONObject))
                } else {
                    Terminal().textLine(wasSet ? "Sleep timer cancelled." : "No sleep timer was set.")
                }
                return
            }
            let timer = try await client.sleep(seconds: try time.map(Self.seconds), end: endOfEpisode ? "episode" : endOfChapter ? "chapter" : nil)
            let view = SleepTimerViewData(timer: timer, now: clockNow())
            if common.json {
                Terminal().line(Rendering.json(view.json))
            } else {
                Terminal().textLine("Sleep timer: " + view.summary + ".")
            }
        }
    }

    /// `30m` as seconds; a usage error unless it is from 1 second to a day.
    static func seconds(_ text: String) throws -> Double {
        guard let seconds = parseCompactDuration(text.lowercased()), seconds >= 1, seconds <= SleepTimer.longest else {
            throw ValidationError("A sleep timer is a time from 1s to 24h, such as 45s, 30m or 1h30m; not '\(text)'.")
        }
        return seconds
    }
}
