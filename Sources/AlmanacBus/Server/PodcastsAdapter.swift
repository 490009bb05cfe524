public import AlmanacCore
public import DBus

/// Serves the podcasts document on the bus.
public struct PodcastsAdapter: DocumentAdapter {
    public let podcasts: PodcastsDocument
    public let service: any PodcastService
    /// Reads feeds for `Inspect`/`InspectData`.
    public let inspector: any FeedInspecting

    public init(podcasts: PodcastsDocument, service: any PodcastService, inspector: any FeedInspecting) {
        self.podcasts = podcasts
        self.service = service
        self.inspector = inspector
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

    /// A feed that could not be read, as a bus error: `NotAFeed` when what was read is not a
    /// feed, `FetchFailed` when it could not be read at all.
    static func inspectError(_ error: any Error) -> BusError {
        switch error {
        case let error as BusError: error
        case FeedInspectionError.notAFeed(let message): BusError(BusContract.notAFeed, message)
        default: BusError(BusContract.fetchFailed, "\(error)")
        }
    }

    static func subscriptions(_ state: PodcastsState) -> Value {
        .array(.dictionary(key: .string, value: .variant), state.podcasts.values.sorted { $0.id < $1.id }.map(PodcastsCodec.encode))
    }

    /// The most bytes `InspectData` takes (D-Bus itself allows 128 MiB messages).
    static let maximumInspectBytes = 32 * 1024 * 1024

    public func domainInterface(connection: Connection) throws -> Interface {
        let podcasts = self.podcasts
        let inspector = self.inspector
        let feed = Argument("feed", .dictionary(key: .string, value: .variant))
        return try Interface("org.almanac.Podcasts1", methods: [
            Method("Inspect", inputs: [Argument("url", .string)], outputs: [feed], async: { call, reply in
                let (url) = try call.arguments(String.self)
                let parsed: ParsedFeed
                do {
                    parsed = try await inspector.inspect(url: url)
                } catch {
                    throw Self.inspectError(error)
                }
                try reply.write(FeedCodec.encode(parsed))
            }),
            Method("InspectData", inputs: [Argument("data", .array(.byte)), Argument("baseURL", .string)], outputs: [feed]) { call, reply in
                let (data, baseURL) = try call.arguments([UInt8].self, String.self)
                guard data.count <= Self.maximumInspectBytes else {
                    throw BusError.invalidArgs("A feed can be at most \(Self.maximumInspectBytes / 1024 / 1024) MiB, not \(data.count / 1024 / 1024) MiB.")
                }
                do {
                    try reply.write(FeedCodec.encode(inspector.inspect(bytes: data, baseURL: baseURL.isEmpty ? nil : baseURL)))
                } catch {
                    throw Self.inspectError(error)
                }
            },
        ], properties: [
            Property("Subscriptions", .array(.dictionary(key: .string, value: .variant))) {
                Self.subscriptions(podcasts.document.snapshot.state)
            },
        ])
    }
}
