import AlmanacCore
import DBus

/// A podcasts view's list: the library's episodes, of one podcast or all, newest first,
/// encoded as they travel.
final class EpisodeListSource: PagingDataSource, Sendable {
    private let podcasts: PodcastsDocument
    private let podcastID: String?

    init(podcasts: PodcastsDocument, podcastID: String?) {
        self.podcasts = podcasts
        self.podcastID = podcastID
    }

    func loadPage(after cursor: String?, limit: Int) async throws -> Page<Value> {
        let page = try podcasts.page(EpisodeQuery(podcastID: podcastID, limit: limit, cursor: cursor))
        return Page(items: page.episodes.map(PodcastsCodec.encode), nextCursor: page.nextCursor)
    }
}
