public import AlmanacCore
public import DBus

/// Serves the podcasts document on the bus.
public struct PodcastsAdapter: DocumentAdapter {
    public let podcasts: PodcastsDocument
    public let service: any PodcastService

    public init(podcasts: PodcastsDocument, service: any PodcastService) {
        self.podcasts = podcasts
        self.service = service
    }

    public var name: DocumentName { .podcasts }
    public var document: PodcastsDocument.Model { podcasts.document }
    public var viewOptionKeys: [String] { [PodcastsDocument.podcastOption] }

    public func encode(state: PodcastsState) -> [String: Value] { PodcastsCodec.encode(state) }
    public func encode(change: PodcastsChange) -> [String: Value] { PodcastsCodec.encode(change) }

    public func slice(_ change: PodcastsChange, for options: [String: String], in state: PodcastsState) -> [String: Value]? {
        PodcastsCodec.slice(change, forPodcast: options[PodcastsDocument.podcastOption], in: state)
    }

    public func failure(in change: PodcastsChange) -> String? {
        if case .failed(let podcast, let message) = change { return "\(podcast): \(message)" }
        return nil
    }

    public func submit(_ values: [String: Value], from view: ViewKey?) throws -> UInt64 {
        let submission = try PodcastsCodec.submission(values)
        do {
            return try podcasts.submit(submission, from: view)
        } catch let error as SubmissionError {
            throw BusError.invalidArgs(error.message)
        }
    }

    /// The podcasts to fetch: one for a view that watches one, all (`nil`) otherwise.
    public struct Work: Sendable {
        let podcasts: [String]?
    }

    public func work(for request: RefreshRequest) -> Work? {
        switch request {
        case .view(let options):
            options[PodcastsDocument.podcastOption].map { Work(podcasts: [$0]) }
        case .due, .everything:
            Work(podcasts: nil)
        }
    }

    public func perform(_ work: Work) async {
        await service.refresh(work.podcasts)
    }

    public func viewsChanged() {}

    public func domainProperties(changedBy change: PodcastsChange) -> (InterfaceName, [String: Value])? {
        guard case .subscribed = change else { return nil }
        return (BusContract.podcastsInterface, ["Subscriptions": Self.subscriptions(podcasts.document.snapshot.state)])
    }

    static func subscriptions(_ state: PodcastsState) -> Value {
        .array(.dictionary(key: .string, value: .variant), state.podcasts.values.sorted { $0.id < $1.id }.map(PodcastsCodec.encode))
    }

    public func domainInterface(connection: Connection) throws -> Interface {
        let podcasts = self.podcasts
        return try Interface("org.almanac.Podcasts1", properties: [
            Property("Subscriptions", .array(.dictionary(key: .string, value: .variant))) {
                Self.subscriptions(podcasts.document.snapshot.state)
            },
        ])
    }
}
