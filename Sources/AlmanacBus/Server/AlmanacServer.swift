import AlmanacCore
public import DBus
public import Logging

/// The daemon's side of the bus contract: the root object (an ObjectManager with
/// `org.almanac.Almanac1`), the weather and podcasts documents, and their views, which go
/// away as soon as their owner leaves the bus.
public final class AlmanacServer: Sendable {
    public let connection: Connection
    public let weather: DocumentObject<WeatherAdapter>
    public let podcasts: DocumentObject<PodcastsAdapter>
    /// The download jobs, when the podcasts adapter downloads.
    public let downloads: DownloadsExport?
    let version: String
    let provider: String
    let logger: Logger

    public init(connection: Connection, weather: WeatherAdapter, podcasts: PodcastsAdapter,
                version: String, provider: String, logger: Logger = Logger(label: "almanac.bus")) {
        self.connection = connection
        // One allowance for both documents: the cap is the daemon's, not a document's.
        let allowance = ViewAllowance()
        self.weather = DocumentObject(adapter: weather, connection: connection, allowance: allowance, logger: logger)
        self.podcasts = DocumentObject(adapter: podcasts, connection: connection, allowance: allowance, logger: logger)
        downloads = podcasts.downloads
        self.version = version
        self.provider = provider
        self.logger = logger
    }

    /// Exports every object and starts watching for clients that leave. Call before taking
    /// the bus name, so that the name appears only when everything is ready.
    public func export() async throws {
        connection.addObjectManager(at: BusContract.rootPath)
        try connection.export([rootInterface()], at: BusContract.rootPath)
        try weather.export()
        try podcasts.export()
        try downloads?.export()
        // Only departures (the new owner is empty). Should the stream ever overflow, the
        // views are checked against the bus instead, so no departed owner keeps a view.
        let departures = try await connection.signals(matching: MatchRule(
            sender: .bus, interface: .bus, member: "NameOwnerChanged", arguments: [2: ""]
        ), bufferLimit: 8_192)
        Task { [weak self] in
            var dropped = 0
            for await message in departures {
                guard let self else { return }
                // A message that does not read as NameOwnerChanged is skipped, not the end of
                // the watch: every later departure must still remove its views.
                if let change = try? NameOwnerChange(message), change.name.isUnique { removeViews(of: change.name) }
                if departures.droppedCount != dropped {
                    dropped = departures.droppedCount
                    await sweep()
                }
            }
        }
    }

    private func removeViews(of owner: BusName) {
        downloads?.ownerLeft(owner)
        let removed = weather.removeViews(ownedBy: owner) + podcasts.removeViews(ownedBy: owner)
        if removed > 0 { logger.debug("a client left the bus; its views were removed", metadata: ["client": "\(owner)", "views": "\(removed)"]) }
    }

    /// Removes the views of every owner no longer on the bus.
    public func sweep() async {
        // Only a definite "no owner" removes views; a failed question removes nothing.
        for owner in Set(weather.owners + podcasts.owners) where (try? await connection.nameOwner(of: owner)) == .some(nil) {
            removeViews(of: owner)
        }
    }

    /// Refreshes both documents now (at start): every place, and every feed that is due — a
    /// feed backing off after failures is left until its time, across restarts too.
    public func refreshAll() async {
        async let w: Void = weather.refresh()
        async let p: Void = podcasts.refresh(.due)
        _ = await (w, p)
    }

    /// Removes everything from the bus.
    public func unexport() {
        weather.unexport()
        podcasts.unexport()
        downloads?.unexport()
        try? connection.unexport(BusContract.rootPath)
    }

    private func rootInterface() throws -> Interface {
        let documents = DocumentName.allCases.map { Value.objectPath(BusContract.documentPath($0)) }
        return try Interface("org.almanac.Almanac1", properties: [
            Property("Version", .string) { [version] in .string(version) },
            Property("Provider", .string) { [provider] in .string(provider) },
            Property("Documents", .array(.objectPath)) { .array(.objectPath, documents) },
        ])
    }
}
