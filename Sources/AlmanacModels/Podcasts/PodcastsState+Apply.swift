extension PodcastsState {
    /// The state after `change`, as far as the change tells it: the one reducer of the
    /// podcasts document, which the daemon's document and its clients (`almanac watch`) both
    /// run. What a change does not carry stays with the document: the episodes a new
    /// subscription brings, and those `olderEpisodes` counts; the window refilled from the
    /// library after an unsubscription.
    /// Returns `change`, so that a document's `update` can end `return state.apply(change)`.
    @discardableResult
    public mutating func apply(_ change: PodcastsChange) -> PodcastsChange {
        switch change {
        case .subscribed(let podcast), .renamed(let podcast):
            podcasts[podcast.id] = podcast
        case .unsubscribed(let podcastID):
            podcasts[podcastID] = nil
            preferences[podcastID] = nil
            let gone = episodes.values.filter { $0.podcastID == podcastID }
            for episode in gone { episodes[episode.id] = nil }
            episodeCount = max(0, episodeCount - gone.count)
        case .newEpisodes(_, let new):
            for episode in new { episodes[episode.id] = episode }
            episodeCount += new.count
            trimToWindow()
        case .olderEpisodes(_, let count):
            episodeCount += count
        case .playState(let episodeID, _, let played, let position):
            // A play state set is the episode seen: it is no longer new.
            episodes[episodeID]?.played = played
            episodes[episodeID]?.position = position
            episodes[episodeID]?.isNew = false
        case .downloaded(let episodeID, _, let file):
            // A file belongs to one episode: any other that had it has it no more.
            if let file {
                for other in episodes.values where other.file == file && other.id != episodeID { episodes[other.id]?.file = nil }
            }
            episodes[episodeID]?.file = file
        case .kept(let episodeID, _, let kept):
            episodes[episodeID]?.kept = kept
        case .allPlayed(let podcastID, _):
            for (id, episode) in episodes where podcastID == nil || episode.podcastID == podcastID {
                episodes[id]?.played = true
                episodes[id]?.isNew = false
            }
        case .settings(let settings):
            self.settings = settings
        case .podcastSettings(let podcastID, let preferences):
            self.preferences[podcastID] = preferences.isDefault ? nil : preferences
        case .queue(let queue):
            self.queue = queue
        case .failed:
            break
        }
        return change
    }
}
