import AlmanacWire
import AlmanacModels
import DBus
import Locking

/// `ListEpisodes` as a paged source, for the CLI's `PagingMediator`.
final class EpisodePages: PagingDataSource, Sendable {
    let client: AlmanacClient
    let podcast: String
    let filters: [String: Value]
    /// How many episodes match, as the last page answered said.
    var total: Int { state.withLock { $0.total } }
    /// The error of the last page that failed, as thrown (the mediator keeps only its text),
    /// so that an absent daemon still exits 69 and a refusal 65.
    var lastError: (any Error)? { state.withLock { $0.error } }
    /// The document's revision when the first page was answered.
    var revision: UInt64 { state.withLock { $0.revision ?? 0 } }
    private let state = Locked<(total: Int, error: (any Error)?, revision: UInt64?)>((0, nil, nil))

    init(client: AlmanacClient, podcast: String, filters: [String: Value]) {
        self.client = client
        self.podcast = podcast
        self.filters = filters
    }

    func loadPage(after cursor: String?, limit: Int) async throws -> Page<Episode> {
        var query = filters
        query["limit"] = .uint32(UInt32(limit))
        if let cursor { query["cursor"] = .string(cursor) }
        do {
            let page = try await client.listEpisodes(podcast: podcast, query: query)
            state.withLock { state in
                state.total = page.total
                state.revision = state.revision ?? page.revision
            }
            return Page(items: page.episodes, nextCursor: page.nextCursor)
        } catch {
            state.withLock { $0.error = error }
            throw error
        }
    }
}
