public import AlmanacModels

/// Searches of the library (`ListEpisodes` with a search, `SearchTranscripts`) run on lanes
/// of their own (`WorkLanes`), not on Swift's shared pool: each may take its whole time
/// budget (`SearchTooBroad` past it), and two at once must not stop every other call's task.
extension PodcastsDocument {
    /// Two lanes: as many searches at once as a small machine has cores; more wait their turn.
    static let searchLanes = WorkLanes(count: 2)

    /// A page of the library as `page(_:)` gives it; a searched one on a search lane.
    public func searchedPage(_ query: EpisodeQuery) async throws -> EpisodePage {
        guard query.search != nil else { return try page(query) }
        return try await Self.searchLanes.run { [self] in try page(query) }
    }

    /// Where `search` is said in the transcripts of `episodeIDs`: at most `perEpisode`
    /// moments each, in order of time (`episodes --search`), looked for on a search lane.
    public func transcriptMoments(matching search: String, in episodeIDs: [String], perEpisode: Int) async throws -> [TranscriptMoment] {
        try await Self.searchLanes.run { [self] in
            try reading { try archive.transcriptMoments(matching: search, in: episodeIDs, perEpisode: perEpisode) }
        }
    }
}
