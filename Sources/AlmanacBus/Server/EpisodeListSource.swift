import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

/// A podcasts view's list: the library's episodes, of one podcast or all, newest first,
/// encoded as they travel. A list of one podcast goes on past the library: once its stored
/// episodes are shown, and while its feed has older pages (RFC 5005), the next page is the
/// feed's next older page, read then (`PodcastsDocument.loadOlderEpisodes`), under the same
/// "Loading…" row.
final class EpisodeListSource: PagingDataSource, Sendable {
    private let podcasts: PodcastsDocument
    private let podcastID: String?
    /// Reads the feed's older pages (none: the list ends with the library).
    private let olderPages: (any OlderEpisodesFetching)?
    /// The cursor that stands for "the feed's next older page" (the library's cursors have a colon).
    static let olderPagesCursor = "older-pages"

    init(podcasts: PodcastsDocument, podcastID: String?, olderPages: (any OlderEpisodesFetching)?) {
        self.podcasts = podcasts
        self.podcastID = podcastID
        self.olderPages = olderPages
    }

    func loadPage(after cursor: String?, limit: Int) async throws -> Page<Value> {
        if cursor == Self.olderPagesCursor, let podcastID, let olderPages {
            let older = try await podcasts.loadOlderEpisodes(of: podcastID, from: olderPages)
            return Page(items: try older.episodes.map(WireCoding.value), nextCursor: older.hasMore ? Self.olderPagesCursor : nil)
        }
        let page = try podcasts.page(EpisodeQuery(podcastID: podcastID, limit: limit, cursor: cursor))
        var next = page.nextCursor
        if next == nil, let podcastID, olderPages != nil, try podcasts.hasOlderPages(podcastID) { next = Self.olderPagesCursor }
        return Page(items: try page.episodes.map(WireCoding.value), nextCursor: next)
    }
}
