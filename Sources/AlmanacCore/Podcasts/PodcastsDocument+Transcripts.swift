import AlmanacModels
import FoundationEssentials
import Logging

extension PodcastsDocument {
    /// An episode's transcript (`Podcasts1.GetTranscript`). Of the links its feed names, the
    /// best format's (`TranscriptFormat.preferred`) is fetched with `fetcher` the first time
    /// it is asked for, and kept; again only when the feed names another link. A file that is
    /// not a transcript, too large, or not at an http(s) address is kept as such with a note
    /// (asking again gives the same); one that could not be fetched is not kept and is asked
    /// for next time; one whose server did not answer is asked for again after
    /// `chaptersRetry`, as chapters files are.
    public func transcript(_ id: String, fetcher: (any TranscriptFetching)?) async throws -> TranscriptLookup {
        guard let episode = try episode(id) else { return .unknownEpisode }
        let details = try reading { try archive.details(of: id) }.episode
        guard let details else {
            return .none("Its feed has not been read since Almanac began keeping details; `almanac podcasts refresh` reads it again.")
        }
        guard let (link, format) = TranscriptFormat.preferred(among: details.transcripts) else {
            if details.transcripts.isEmpty { return .none("Its feed names no transcript.") }
            let types = Set(details.transcripts.map { $0.type ?? "no type" }).sorted().joined(separator: ", ")
            return .none("Its feed names transcripts only in formats Almanac does not read (\(types)).")
        }
        let kept = try reading { try archive.transcript(of: id) }
        let now = clock()
        if let kept, kept.url == link.url, kept.retryAfter.map({ now < $0 }) ?? true { return .found(kept) }
        guard let fetcher else { return .none("This almanacd does not fetch transcripts (\(FeedCredentials.redacted(link.url))).") }
        let fetched: Transcript
        do throws(LinkedFileError) {
            let feed = podcast(episode.podcastID)?.feedURL ?? ""
            fetched = Transcript(url: link.url, format: format, segments: try await fetcher.transcript(at: link.url, format: format, namedBy: feed))
        } catch where error.code == .unreadable {
            // Not kept: asked for again next time; what was kept before stays.
            return .found(Transcript(url: link.url, format: format, segments: [], note: error.message))
        } catch where error.code == .invalid {
            fetched = Transcript(url: link.url, format: format, segments: [], note: error.message)
        } catch {
            fetched = Transcript(url: link.url, format: format, segments: [],
                                 note: error.message + (error.message.hasSuffix(".") ? " " : ". ") + "It is asked for again after \(Self.chaptersRetryWords).",
                                 retryAfter: now.addingTimeInterval(Self.chaptersRetry))
        }
        do {
            // Through the owner, awaited: this runs in a task of the pool.
            _ = try await owner.submit(Command(origin: nil) { [archive] _ in
                try archive.saveTranscript(fetched, of: id)
                return nil
            })
        } catch {
            logger.error("could not keep an episode's transcript", metadata: ["episode": "\(id)", "error": "\(error)"])
        }
        return .found(fetched)
    }
}
