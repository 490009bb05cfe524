import AlmanacCore
import AlmanacModels
import DBus
import FoundationEssentials
import Locking
import Logging

/// Playing on: when an episode ends, its played mark is awaited and the next episode
/// of the queue or the podcast is started on the same player.
extension PlayerSteering {
    // MARK: Playing on

    /// (Re)starts the wait for the moment the first playing player's episode counts as played,
    /// by its position estimate: then the player is asked where it is, and what it says is
    /// recorded (`MPRISListener.catchUp`), which tells `.played` when it is so. `after`: the
    /// player just asked, which is not asked again within a second (an estimate ahead of a
    /// player that does not answer would otherwise ask it at once, again and again).
    func awaitPlayedMark(after asked: BusName? = nil) {
        let due = players.playingEpisodes().filter { $0.playing && !$0.reachedPlayed }.compactMap { player -> (owner: BusName, delay: Double)? in
            guard let mark = try? podcasts.playedMark(of: player.episodeID, length: player.length) else { return nil }
            let delay = max(0, mark - player.position) / (player.rate > 0 ? player.rate : 1)
            return (player.owner, player.owner == asked ? max(delay, 1) : delay)
        }.min { $0.delay < $1.delay }
        let turn = due.map { due in
            spawnStoppable { [weak self, players] in
                // A little past the mark, so that the player is past it when asked.
                guard await Self.wait(due.delay + 0.1), !Task.isCancelled else {
                    if !Task.isCancelled { self?.awaitPlayedMark() }
                    return
                }
                await players.catchUp(due.owner)
                guard !Task.isCancelled else { return }
                self?.awaitPlayedMark(after: due.owner)
            }
        }
        state.withLock { state in
            defer { state.playedTurn = turn }
            return state.playedTurn
        }?.stop()
    }

    /// Where `player`, whose episode counted as played as it played it, is to play on: at the
    /// start of its podcast's outro (`skip-outro`: the outro is skipped), else `playOnMargin`
    /// seconds of listening before its end; at once (0) when the player gives no length (the
    /// feed's is a guess, and a player past its end has quit).
    private func playOnMoment(_ player: PlayingEpisode) -> Double {
        guard let length = player.length else { return 0 }
        let outro = (try? podcasts.episode(player.episodeID)).flatMap { $0 }
            .flatMap { podcasts.document.snapshot.state.preferences(of: $0.podcastID).skipOutro }
        return min(length - Self.playOnMargin * player.rate, outro.map { length - $0 } ?? .infinity)
    }

    /// (Re)starts the wait for the moment the first playing player waiting to play on
    /// (`playOnDue`) reaches its `playOnMoment`, by its position estimate. Then it is asked
    /// where it is (`MPRISListener.catchUp`): short of the moment, the wait starts again from
    /// there; else it is told to play on. A paused player is not waited for (it waits for
    /// it to play again, a change that restarts this wait). `after`: the player just asked,
    /// not asked again within twice `playOnSlack` (one that says it plays yet does not move
    /// would otherwise be asked again and again).
    func awaitPlayOn(after asked: BusName? = nil) {
        let due = state.withLock { $0.playOnDue }
        let next = players.playingEpisodes().filter { $0.playing && due[$0.owner] == $0.episodeID }.map { player in
            let delay = max(0, playOnMoment(player) - player.position) / (player.rate > 0 ? player.rate : 1)
            return (player: player, delay: player.owner == asked ? max(delay, 2 * Self.playOnSlack) : delay)
        }.min { $0.delay < $1.delay }
        let turn = next.map { next in
            spawnStoppable { [weak self] in
                guard await Self.wait(next.delay), !Task.isCancelled else {
                    if !Task.isCancelled { self?.awaitPlayOn() }
                    return
                }
                await self?.playOnIfThere(next.player.owner, next.player.episodeID)
            }
        }
        state.withLock { state in
            defer { state.playOnTurn = turn }
            return state.playOnTurn
        }?.stop()
    }

    /// The wait for `owner`'s moment to play on is over: the player says where it is, and is
    /// told to play on if it is there (within `playOnSlack`), or waited for again.
    private func playOnIfThere(_ owner: BusName, _ episodeID: String) async {
        await players.catchUp(owner)
        guard !Task.isCancelled else { return }
        guard let player = players.playingEpisodes().first(where: { $0.owner == owner && $0.episodeID == episodeID && $0.playing }) else { return }
        guard player.position >= playOnMoment(player) - Self.playOnSlack else {
            awaitPlayOn(after: owner)
            return
        }
        // One step with the timer: an end-of-episode timer set meanwhile keeps it on its episode.
        let go = state.withLock { state -> Bool in
            guard state.playOnDue[owner] == episodeID else { return false }
            state.playOnDue[owner] = nil
            guard let timer = state.timer?.status else { return true }
            return !(timer.owner == owner && timer.timer == .endOfEpisode)
        }
        // Its own task: the player's answer to `OpenUri` (another track) restarts this wait.
        if go { spawn { [weak self] in await self?.playOn(from: episodeID, on: owner) } }
    }

    /// The episode `owner` plays counts as played (and so has left the queue): with the
    /// setting `continuous` on and another episode in the queue, the player is told to open
    /// that one (`OpenUri`): its downloaded file, else — or when the player refuses the file —
    /// its audio URL. `started` then moves it to where the episode was left and sets its
    /// podcast's speed. What the player refuses is logged; nothing else is tried. Not while
    /// a sleep timer waits for the end of this player's episode: the user means to stop there.
    func playOn(from episodeID: String, on owner: BusName) async {
        guard podcasts.document.snapshot.state.settings.continuous else { return }
        if let timer = sleepTimer, timer.owner == owner, timer.timer == .endOfEpisode { return }
        let next: Episode?
        do {
            next = try podcasts.queuedEpisodes().first { $0.id != episodeID }
        } catch {
            logger.error("could not read the queue to play on", metadata: ["player": "\(owner)", "error": "\(error)"])
            return
        }
        guard let next else { return }
        let file = next.file.flatMap { FileManager.default.fileExists(atPath: $0) ? FileURL.url(of: $0) : nil }
        let remote = next.audioURL.flatMap { $0.hasPrefix("https://") || $0.hasPrefix("http://") ? $0 : nil }
        let uris = [file, remote].compactMap { $0 }
        guard !uris.isEmpty else {
            logger.notice("the next episode in the queue has neither a download nor an audio URL to play on to", metadata: ["episode": "\(next.id)"])
            return
        }
        // Where the player was as it was told (the journal says it: how much of the end was left).
        let at = players.playingEpisodes().first { $0.owner == owner && $0.episodeID == episodeID }
        // Before the player is told: it may say it opened the episode before it answers.
        state.withLock { $0.resumes[owner] = (next.id, next.position) }
        for uri in uris {
            do {
                try await players.openURI(owner, uri)
                logger.info("playing on to the next episode in the queue", metadata: ["player": "\(owner)", "from": "\(episodeID)", "to": "\(next.id)",
                                                                                      "at": "\(at?.position ?? -1)", "length": "\(at?.length ?? -1)"])
                return
            } catch {
                logger.notice("a media player did not open the next episode", metadata: ["player": "\(owner)", "uri": "\(uri)", "error": "\(error)"])
            }
        }
        state.withLock { $0.resumes[owner] = nil }
        logger.error("could not play on: the media player opened neither the download nor the audio URL of the next episode",
                     metadata: ["player": "\(owner)", "episode": "\(next.id)"])
        // Said where a person looks (`LastError`, `almanac status`), not only in the journal.
        podcasts.activity.failed("Playing on: the media player \(owner) opened neither the download nor the audio URL of “\(next.title.prefix(100))”; "
                                 + "start it yourself with `almanac episode play --next`, or turn playing on off with `almanac settings set continuous off`.")
    }
}
