import AlmanacCore
public import DBus

/// The daemon's side of the bus contract: the root object (an ObjectManager with
/// `org.almanac.Almanac1`), the weather and podcasts documents, and their views, which go
/// away as soon as their owner leaves the bus.
public final class AlmanacServer: Sendable {
    public let connection: Connection
    public let weather: DocumentObject<WeatherAdapter>
    public let podcasts: DocumentObject<PodcastsAdapter>
    let version: String
    let provider: String
    let log: @Sendable (String) -> Void

    public init(connection: Connection, weather: WeatherAdapter, podcasts: PodcastsAdapter,
                version: String, provider: String, log: @escaping @Sendable (String) -> Void) {
        self.connection = connection
        self.weather = DocumentObject(adapter: weather, connection: connection, log: log)
        self.podcasts = DocumentObject(adapter: podcasts, connection: connection, log: log)
        self.version = version
        self.provider = provider
        self.log = log
    }

    /// Exports every object and starts watching for clients that leave. Call before taking
    /// the bus name, so that the name appears only when everything is ready.
    public func export() async throws {
        connection.addObjectManager(at: BusContract.rootPath)
        try connection.export([rootInterface()], at: BusContract.rootPath)
        try weather.export()
        try podcasts.export()
        let departures = try await connection.nameOwnerChanges()
        Task { [weak self] in
            for await change in departures where change.newOwner == nil && change.name.isUnique {
                guard let self else { return }
                let removed = weather.removeViews(ownedBy: change.name) + podcasts.removeViews(ownedBy: change.name)
                if removed > 0 { log("\(change.name) left the bus; removed its \(removed) view(s)") }
            }
        }
    }

    /// Refreshes both documents now.
    public func refreshAll() async {
        async let w: Void = weather.refresh()
        async let p: Void = podcasts.refresh()
        _ = await (w, p)
    }

    /// Removes everything from the bus.
    public func unexport() {
        weather.unexport()
        podcasts.unexport()
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
