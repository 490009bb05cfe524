import AlmanacBus
import AlmanacCore
import DBus

/// `ListEpisodes` as a paged source, for the CLI's `PagingMediator`.
final class EpisodePages: PagingDataSource, Sendable {
    let client: AlmanacClient
    let podcast: String
    let filters: [String: Value]

    init(client: AlmanacClient, podcast: String, filters: [String: Value]) {
        self.client = client
        self.podcast = podcast
        self.filters = filters
    }

    func loadPage(after cursor: String?, limit: Int) async throws -> Page<Episode> {
        var query = filters
        query["limit"] = .uint32(UInt32(limit))
        if let cursor { query["cursor"] = .string(cursor) }
        let page = try await client.listEpisodes(podcast: podcast, query: query)
        return Page(items: page.episodes, nextCursor: page.nextCursor)
    }
}
