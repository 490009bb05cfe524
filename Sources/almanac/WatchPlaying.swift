import AlmanacModels
import AlmanacViews
import AlmanacWire
import DBus
import FoundationEssentials

/// `almanac watch playing`: a line whenever what a media player plays changes — another
/// episode, a chapter beginning, playing or paused, a seek, the sleep timer — from the player
/// object's `PropertiesChanged` (`NowPlaying`, `SleepTimer`). Between them it sleeps: nothing
/// reads the player on a clock, here or in the daemon.
struct WatchPlaying {
    let client: AlmanacClient
    let rendering: Rendering

    /// Follows one daemon: returns when it leaves the bus.
    func run(_ terminal: Terminal) async throws {
        let owner = try await client.startDaemon()
        let changes = try await client.playerChanges()
        let departures = try await client.daemonChanges()
        let (nowPlaying, sleepTimer) = (try await client.nowPlaying(), try await client.sleepTimer())
        let first = render(nowPlaying, sleepTimer)
        terminal.line(first)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var (playing, timer, last) = (nowPlaying, sleepTimer, first)
                for await message in changes where message.sender == owner {
                    guard let (_, changed, _) = try? BusSignal.propertiesChanged.values(of: message) else { continue }
                    if let value = changed[BusContract.Player1.nowPlaying] {
                        playing = try? WireCoding.decodeIfAny(NowPlaying.self, fromFields: value.value.stringKeyedEntries ?? [:])
                    }
                    if let value = changed[BusContract.Player1.sleepTimer] {
                        timer = (try? WireCoding.decodeIfAny(SleepTimerProperty.self, fromFields: value.value.stringKeyedEntries ?? [:]))?.state
                    }
                    let line = render(playing, timer)
                    guard line != last else { continue }
                    last = line
                    terminal.line(line)
                }
            }
            group.addTask {
                for await change in departures where change.oldOwner != nil && change.oldOwner == owner { return }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// One line: JSON, waybar's JSON, the template, or the plain line.
    private func render(_ playing: NowPlaying?, _ timer: SleepTimerState?) -> String {
        let view = NowPlayingViewData(playing: playing, timer: timer, now: clockNow())
        if rendering.waybar { return Rendering.json(view.waybar(template: rendering.template)) }
        if rendering.json { return Rendering.json(view.json) }
        if let template = rendering.template { return template.render(view.fields) }
        return rendering.terminal.render(StyledLine(view.line).truncated(to: rendering.width))
    }
}
