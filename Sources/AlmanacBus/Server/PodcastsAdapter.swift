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
        return try Self.translated { try podcasts.submit(submission, from: view) }
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
        switch change {
        case .subscribed, .unsubscribed, .renamed: break
        default: return nil
        }
        return (BusContract.podcastsInterface, ["Subscriptions": Self.subscriptions(podcasts.document.snapshot.state)])
    }

    /// Runs `body`, turning the document's refusals into bus errors: `InvalidArgs` for input it
    /// refuses, `Failed` when the disk refused (and then nothing changed).
    @discardableResult
    static func translated<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SubmissionError {
            throw BusError.invalidArgs(error.message)
        } catch let error as StorageError {
            throw BusError(.failed, "\(error) Nothing was changed.")
        }
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
        let podcastArgument = Argument("podcast", .string)
        return try Interface("org.almanac.Podcasts1", methods: [
            Method("Subscribe", inputs: [Argument("url", .string)], outputs: [podcastArgument], async: { call, reply in
                let (given) = try call.arguments(String.self)
                let url = given.trimmed
                if let known = podcasts.podcast(url) {
                    try reply.write(known.id)
                    return
                }
                let feed: ParsedFeed
                do {
                    feed = try await inspector.inspect(url: url)
                } catch {
                    throw Self.inspectError(error)
                }
                let podcast = FeedMapping.podcast(from: feed, feedURL: url)
                try Self.translated { try podcasts.subscribe(podcast, episodes: FeedMapping.episodes(from: feed, podcastID: podcast.id)) }
                try reply.write(podcast.id)
            }),
            Method("Unsubscribe", inputs: [podcastArgument]) { call, _ in
                let (podcast) = try call.arguments(String.self)
                try Self.translated { try podcasts.unsubscribe(podcasts.podcast(podcast)?.id ?? podcast) }
            },
            Method("RefreshPodcast", inputs: [podcastArgument], async: { [service] call, _ in
                let (given) = try call.arguments(String.self)
                guard let podcast = podcasts.podcast(given) else {
                    throw BusError.invalidArgs(PodcastsDocument.unknownPodcast(given, in: podcasts.document.snapshot.state).message)
                }
                await service.refresh([podcast.id])
            }),
            Method("Rename", inputs: [podcastArgument, Argument("title", .string)]) { call, _ in
                let (podcast, title) = try call.arguments(String.self, String.self)
                try Self.translated { try podcasts.rename(podcasts.podcast(podcast)?.id ?? podcast, to: title) }
            },
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
