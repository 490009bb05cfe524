import FoundationEssentials
import Logging
public import AlmanacModels

/// A podcast's list beyond the library: the older pages of its feed (RFC 5005 paged and
/// archived feeds), read when a list of the podcast reaches its end.
extension PodcastsDocument {
    /// Keeps where a podcast's older pages begin, as a read of its feed announced, unless they
    /// were found before (a list may already have paged further, or to the end).
    func rememberOlderPages(at url: String, of podcastID: String) {
        do {
            try write { [archive] _ in
                guard try archive.olderPages(of: podcastID) == .none else { return nil }
                try archive.saveOlderPages(.at(url), of: podcastID)
                return nil
            }
        } catch {
            logger.error("could not keep where a feed's older pages are", metadata: ["podcast": "\(podcastID)", "error": "\(error)"])
        }
    }

    /// Whether a podcast's feed has older pages not read yet; `StorageError` when that could not be read.
    public func hasOlderPages(_ podcastID: String) throws -> Bool {
        try archive.olderPages(of: podcastID).next != nil
    }

    /// Episodes older than the library holds, for a list of one podcast that reached its
    /// end: the feed's next older page is read (and, while pages give only episodes the
    /// library has, the ones after it, at most `olderPagesPerLoad`); what is new is kept, not
    /// new and unplayed, and announced as `olderEpisodes`. Returns those episodes, newest
    /// first, and whether older pages remain. `reader` reads the pages (the feed reader's
    /// capability, passed by who has it). Throws `SubmissionError` for an unknown podcast,
    /// and what the reader throws when a page cannot be read (nothing changes).
    public func loadOlderEpisodes(of podcastID: String, from reader: any OlderEpisodesFetching) async throws -> (episodes: [Episode], hasMore: Bool) {
        guard let podcast = document.snapshot.state.podcasts[podcastID] else { throw Self.unknownPodcast(podcastID, in: document.state) }
        guard var url = try archive.olderPages(of: podcastID).next else { return ([], false) }
        for _ in 0..<Self.olderPagesPerLoad {
            let page = try await reader.olderPage(at: url, of: podcast)
            // A page that links to itself, or back, ends the walk.
            let next = page.nextPageURL.flatMap { $0 == url ? nil : $0 }
            let kept = try archive.episodeIDs(of: podcastID)
            var seen = Set<String>()
            let room = max(0, Self.maximumEpisodesPerPodcast - kept.count)
            let older = Array(page.episodes
                .filter { !kept.contains($0.id) && seen.insert($0.id).inserted }
                .map { episode in
                    var episode = episode
                    episode.isNew = false
                    return episode
                }
                .sorted { ($0.published, $0.id) > ($1.published, $1.id) }
                .prefix(room))
            let pages: OlderPages = (next.map { .at($0) } ?? .readToTheEnd)
            // On the owner's queue, where their writes go straight in: this runs in a task of the pool.
            try await withOwner { [self] in
                try keepOlder(older, of: podcastID, pages: pages)
                if !older.isEmpty, let details = page.details { keep(details, of: podcast) }
            }
            if !older.isEmpty || next == nil || room == 0 { return (older, next != nil && room > older.count) }
            url = next!
        }
        return ([], try archive.olderPages(of: podcastID).next != nil)
    }

    /// Keeps older episodes of a podcast and where its older pages go on, in one change.
    private func keepOlder(_ episodes: [Episode], of podcastID: String, pages: OlderPages) throws {
        try write { [archive] state in
            guard let podcast = state.podcasts[podcastID] else { return nil }  // unsubscribed meanwhile
            if !episodes.isEmpty { try archive.save(podcast, newEpisodes: episodes) }
            try archive.saveOlderPages(pages, of: podcastID)
            guard !episodes.isEmpty else { return nil }
            // The change counts them; the episodes go to the list that asked (usually older than
            // the window; in a small library some belong in it).
            for episode in episodes { state.episodes[episode.id] = episode }
            state.trimToWindow()
            return state.apply(.olderEpisodes(podcastID: podcastID, count: episodes.count))
        }
    }
}
