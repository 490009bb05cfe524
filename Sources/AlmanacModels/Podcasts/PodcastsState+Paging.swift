extension PodcastsState {
    /// The page of episodes `query` asks for; `SubmissionError` for a cursor that is not one
    /// a page handed out.
    public func page(_ query: EpisodeQuery) throws -> EpisodePage {
        var matching: [Episode] = []
        var total = 0
        for episode in episodes.values where query.matches(episode) {
            total += 1
            guard let after = query.isAfterCursor(episode) else {
                throw SubmissionError("'\(query.cursor?.prefix(80) ?? "")' is not a cursor from a previous page; leave it out to start at the beginning.")
            }
            if after { matching.append(episode) }
        }
        matching.sort(by: query.precedes)
        let page = Array(matching.prefix(query.limit))
        let next = matching.count > page.count ? page.last.map(EpisodeQuery.cursor(after:)) : nil
        return EpisodePage(episodes: page, total: total, nextCursor: next)
    }
}
