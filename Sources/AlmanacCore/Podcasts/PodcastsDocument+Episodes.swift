import Logging
public import FoundationEssentials
public import AlmanacModels

/// Episodes in the library: downloads, played state and positions, records with chapters.
extension PodcastsDocument {
    // MARK: Downloads in the library

    /// Every episode with a downloaded file, in the whole library (not only the window),
    /// newest first; `StorageError` when the library could not be read (never some of them).
    public func downloadedEpisodes() throws -> [Episode] {
        var episodes: [Episode] = []
        var query = EpisodeQuery(limit: EpisodeQuery.maximumLimit)
        query.onlyDownloaded = true
        while true {
            let page = try reading { try archive.page(query) }
            episodes += page.episodes
            guard let next = page.nextCursor else { break }
            query.cursor = next
        }
        return episodes
    }

    /// When each of these episodes was marked played (those played and noted).
    public func playedAt(of episodeIDs: [String]) throws -> [String: Date] {
        try reading { try archive.playedAt(of: episodeIDs) }
    }

    /// What each of these episodes is by its feed's `itunes:episodeType` (full where the feed
    /// did not say); `StorageError` when the library could not be read.
    public func episodeKinds(of episodeIDs: [String]) throws -> [String: EpisodeKind] {
        try reading {
            try Dictionary(episodeIDs.map { id in (id, EpisodeKind(episodeType: try archive.details(of: id).episode?.episodeType)) }) { first, _ in first }
        }
    }

    /// Marks every episode of `podcast` (id or feed URL; `nil`: of every podcast) played,
    /// in one write and one change (`allPlayed`), however many there are. Throws
    /// `SubmissionError` for an unknown podcast.
    @discardableResult
    public func markAllPlayed(_ podcast: String?, from view: ViewKey?) throws -> UInt64 {
        try write(origin: view, markingAllPlayed(podcast)) ?? document.revision
    }

    func markingAllPlayed(_ podcast: String?) -> Body {
        { [self] state in
            var podcastID: String?
            if let podcast {
                guard let found = state.podcasts[podcast] ?? state.podcasts.values.first(where: { $0.feedURL == podcast || FeedCredentials.redacted($0.feedURL) == podcast }) else {
                    throw Self.unknownPodcast(podcast, in: state)
                }
                podcastID = found.id
            }
            let count = try self.archive.markAllPlayed(of: podcastID)
            state.queue.removeAll { podcastID == nil || $0.podcastID == podcastID }
            let change = state.apply(.allPlayed(podcastID: podcastID, count: count))
            return count == 0 ? nil : change
        }
    }

    /// Changes the settings a view submitted, after validating them.
    @discardableResult
    public func submit(_ submission: SettingsSubmission, from view: ViewKey?) throws -> UInt64 {
        try write(origin: view, changing(submission)) ?? document.revision
    }

    func changing(_ submission: SettingsSubmission) -> Body {
        { [self] state in
            let settings = try submission.applied(to: state.settings)
            guard settings != state.settings else { return nil }
            try self.archive.saveSettings(settings)
            return state.apply(.settings(settings))
        }
    }

    /// Records that an episode's audio is now at `file` (`nil`: its file was deleted). A file
    /// belongs to one episode: any other that had it loses it in the same change, and is then
    /// told so with a change of its own, so views showing it hear of it.
    @discardableResult
    public func recordFile(_ file: String?, of episodeID: String) throws -> UInt64? {
        // The episodes that lose the file, as the state is before the change: on the owner, where
        // every caller records (`withOwner`), no other change comes between.
        let lost = file.map { file in document.state.episodes.values.filter { $0.id != episodeID && $0.file == file } } ?? []
        let revision = try write { [self] state in
            guard let episode = try state.episodes[episodeID] ?? reading({ try archive.episode(episodeID) }) else {
                throw SubmissionError("There is no episode '\(episodeID.prefix(200))'.")
            }
            guard episode.file != file else { return nil }
            // The archive forgets the file for the others too, in the same transaction (and so
            // does `apply`).
            try archive.saveFile(file, of: episodeID)
            return state.apply(.downloaded(episodeID: episodeID, podcastID: episode.podcastID, file: file))
        }
        guard revision != nil else { return nil }
        // Each told only while it still has no file (another recordFile may have given it one).
        for other in lost.sorted(by: { $0.id < $1.id }) {
            _ = try? write { state in
                guard let current = state.episodes[other.id], current.file == nil else { return nil }
                return state.apply(.downloaded(episodeID: other.id, podcastID: other.podcastID, file: nil))
            }
        }
        return revision
    }

    /// How long a chapters file that could not be fetched is left before it is asked for again.
    public static let chaptersRetry: TimeInterval = 3_600
    static let chaptersRetryWords = "an hour"

    /// One episode's full record (`Podcasts1.GetEpisodeDetails`), `nil` for an unknown id.
    /// The chapters file its feed names is fetched with `fetcher` the first time it is asked
    /// for (and again only when the feed names another file) and kept: a file that is not
    /// chapters JSON is kept as such, with a note saying why there are no chapters from it;
    /// one that could not be fetched is noted and asked for again next time, or, when its
    /// server did not answer, once `chaptersRetry` has passed (a stalled server would
    /// otherwise hold up every look at the episode). Chapters from the file win over the
    /// feed's own Podlove Simple Chapters.
    public func episodeRecord(_ id: String, chapters fetcher: (any ChaptersFetching)?) async throws -> EpisodeRecord? {
        guard let episode = try episode(id) else { return nil }
        let kept = try reading { try archive.details(of: id) }
        var record = EpisodeRecord(episode: episode, podcastTitle: document.snapshot.state.podcasts[episode.podcastID]?.title,
                                   podcast: kept.podcast ?? PodcastDetails(), details: kept.episode)
        var fetched = kept.chapters
        let now = clock()
        if let url = kept.episode?.chaptersURL, fetched?.url != url || fetched?.retryAfter.map({ now >= $0 }) == true {
            if let fetcher {
                do throws(LinkedFileError) {
                    let feed = podcast(episode.podcastID)?.feedURL ?? ""
                    fetched = FetchedChapters(url: url, chapters: try await fetcher.chapters(at: url, namedBy: feed))
                } catch where error.code == .invalid {
                    fetched = FetchedChapters(url: url, chapters: [], note: error.message)
                } catch where error.code == .unreadable {
                    // Not kept: asked for again next time.
                    fetched = nil
                    record.chaptersNote = error.message
                } catch {
                    let retry = now.addingTimeInterval(Self.chaptersRetry)
                    fetched = FetchedChapters(url: url, chapters: [], note: error.message + (error.message.hasSuffix(".") ? " " : ". ") + "It is asked for again after \(Self.chaptersRetryWords).", retryAfter: retry)
                }
                if let fetched {
                    do {
                        // Through the owner, awaited: this runs in a task of the pool.
                        _ = try await owner.submit(Command(origin: nil) { [archive] _ in
                            try archive.saveChapters(fetched, of: id)
                            return nil
                        })
                    } catch {
                        logger.error("could not keep an episode's chapters", metadata: ["episode": "\(id)", "error": "\(error)"])
                    }
                }
            } else {
                record.chaptersNote = "This almanacd does not fetch chapters files (\(url))."
            }
        }
        if let fetched, fetched.url == kept.episode?.chaptersURL {
            record.chaptersNote = record.chaptersNote ?? fetched.note
            if !fetched.chapters.isEmpty {
                record.chapters = fetched.chapters
                record.chaptersSource = .json
            }
        }
        if record.chapters.isEmpty, let own = kept.episode?.chapters, !own.isEmpty {
            record.chapters = own
            record.chaptersSource = .feed
        }
        return record
    }

    /// One episode, in the window or anywhere in the library; `StorageError` when the library
    /// could not be read.
    public func episode(_ id: String) throws -> Episode? {
        try document.snapshot.state.episodes[id] ?? reading { try archive.episode(id) }
    }

    /// The episode a media player is playing: the one whose enclosure is at `url`, or whose
    /// downloaded file `url` names (`file://`).
    public func episode(playing url: String) throws -> Episode? {
        let file = FileURL.path(of: url)
        return try reading { try archive.episode(audioURL: file == nil ? url : nil, file: file) }
    }

    /// A media player was at `position` seconds of an episode whose length it gave as
    /// `length` (`nil`: it did not say, and the feed's duration counts). Kept as the
    /// episode's position, and past the `playedAt` share of its length (or in its podcast's
    /// outro, `skipOutro` seconds before its end) as played, when that
    /// moves the kept position by a second or more or marks it played (players report
    /// often). Returns the revision after it, or `nil` when nothing was worth keeping.
    @discardableResult
    public func recordPlayback(of episodeID: String, at position: Double, length: Double?) throws -> UInt64? {
        // A position no episode has (a player's µs counter can say 10⁷ years) is not kept.
        guard position.isFinite, (0...PlayStateSubmission.maximumPosition).contains(position) else { return nil }
        let episode = try episode(episodeID)
        let length = length ?? episode?.duration
        let played = playedMark(of: episode, length: length).map { position >= $0 } ?? false
        let rounded = (min(position, length ?? position) * 10).rounded() / 10
        guard played && episode?.played == false || abs(rounded - (episode?.position ?? -1)) >= 1 else { return nil }
        return try submit(PlayStateSubmission(episodeID: episodeID, played: played ? true : nil, position: rounded), from: nil)
    }

    /// Seconds into an episode from which a media player's position makes it count as played:
    /// the `playedAt` share of its length (`length`, the player's; `nil`: the feed's duration),
    /// or the start of its podcast's outro (`skipOutro`) when that comes first. `nil` when its
    /// length is not known (it never counts as played by position then).
    public func playedMark(of episodeID: String, length: Double?) throws -> Double? {
        playedMark(of: try episode(episodeID), length: length)
    }

    private func playedMark(of episode: Episode?, length: Double?) -> Double? {
        guard let length = length ?? episode?.duration, length > 0 else { return nil }
        let state = document.snapshot.state
        let share = length * state.settings.playedAt
        let outro = episode.flatMap { state.preferences(of: $0.podcastID).skipOutro } ?? 0
        return outro > 0 ? min(share, length - outro) : share
    }

    /// Applies a play-state change a view submitted, after validating it.
    @discardableResult
    public func submit(_ submission: PlayStateSubmission, from view: ViewKey?) throws -> UInt64 {
        try write(origin: view, playing(submission)) ?? document.revision
    }

    func playing(_ submission: PlayStateSubmission) -> Body {
        { [self] state in
            // In the window, or anywhere in the library; by id, or by the GUID its feed gave it.
            let found = try self.find(submission.episodeID, in: state)
            try submission.validate(against: found)
            guard var episode = found else { return nil }
            let before = episode
            if let played = submission.played {
                episode.played = played
            } else if submission.resumes, let position = submission.position, episode.played {
                episode.played = episode.duration.map { $0 > 0 && position >= $0 * state.settings.playedAt } ?? false
            }
            if let position = submission.position { episode.position = position }
            episode.isNew = false
            guard episode != before else { return nil }
            // Kept on disk first: a change the caller is told about survives a crash.
            try self.archive.savePlayState(episode)
            // A played episode leaves the queue (published as its own change after this one).
            if episode.played { state.queue.removeAll { $0.episodeID == episode.id } }
            return state.apply(.playState(episodeID: episode.id, podcastID: episode.podcastID, played: episode.played, position: episode.position))
        }
    }
}
