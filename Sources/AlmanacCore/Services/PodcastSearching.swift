public import AlmanacModels
/// Finds podcasts by name in a directory (`Podcasts1.Search`); the daemon gives the podcasts
/// adapter one over HTTP (the iTunes Search API), so the bus layer never touches the network.
public protocol PodcastSearching: Sendable {
    /// Up to `limit` podcasts matching `term`, best first. Throws `PodcastSearchError` when
    /// the directory cannot be asked or answers with something else than results.
    func search(_ term: String, limit: Int) async throws -> [PodcastSearchResult]
}
