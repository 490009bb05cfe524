import AlmanacWire
public import AlmanacCore
public import AlmanacModels
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
    /// The machine's network as the daemon knows it (`Network`).
    let network: @Sendable () -> NetworkState
    /// The library's backups (`Backup`, `ListBackups`, `Restore`, `ImportBackup`); `nil`: none kept.
    let backups: LibraryBackups?
    let logger: Logger

    public init(connection: Connection, weather: WeatherAdapter, podcasts: PodcastsAdapter,
                version: String, provider: String, network: @escaping @Sendable () -> NetworkState = { .unknown },
                backups: LibraryBackups? = nil, logger: Logger) {
        self.connection = connection
        // Every handler on the connection just throws: this is where its error becomes the reply.
        ErrorReplies.answer(on: connection, logger: logger)
        // One allowance for both documents: the cap is the daemon's, not a document's.
        let allowance = ViewAllowance()
        self.weather = DocumentObject(adapter: weather, connection: connection, allowance: allowance, logger: logger)
        self.podcasts = DocumentObject(adapter: podcasts, connection: connection, allowance: allowance, logger: logger)
        downloads = podcasts.downloads
        self.version = version
        self.provider = provider
        self.network = network
        self.backups = backups
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
        // A client that leaves loses its views and downloads on the connection's thread, before
        // the next call is handled: however fast clients come and go, none is left behind.
        try await connection.whenPeersLeave { [weak self] owner in self?.removeViews(of: owner) }
    }

    private func removeViews(of owner: BusName) {
        downloads?.ownerLeft(owner)
        let removed = weather.removeViews(ownedBy: owner) + podcasts.removeViews(ownedBy: owner)
        if removed > 0 { logger.debug("a client left the bus; its views were removed", metadata: ["client": "\(owner)", "views": "\(removed)"]) }
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
        let documents = DocumentName.allCases.map { BusContract.documentPath($0) }
        return try Interface(BusContract.rootInterface.rawValue, methods: [
            // The setting goes to the document that owns it, as that document's `Submit` with no
            // view as its origin; answered once it is saved, like `Submit`.
            Method.deferred(BusContract.Almanac1.setSetting) { [weather, podcasts] _, arguments, reply in
                let (name, value) = arguments
                guard let setting = Setting(busKey: name) else {
                    throw BusError.invalidArgs("There is no setting '\(name.prefix(200))'; there are: \(Setting.allCases.map(\.busKey).joined(separator: ", ")).")
                }
                let answer = { @Sendable (result: Result<UInt64, any Error>) in _ = reply.answer(result) { $0 } }
                switch setting.section {
                case .weather: try weather.adapter.submit([setting.busKey: value], from: nil, answer: answer)
                case .podcasts: try podcasts.adapter.submit([setting.busKey: value], from: nil, answer: answer)
                }
            },
        ] + backupMethods(), properties: [
            Property(BusContract.Almanac1.version) { [version] in version },
            Property(BusContract.Almanac1.provider) { [provider] in provider },
            Property(BusContract.Almanac1.documents) { documents },
            Property(BusContract.Almanac1.network) { [network] in network().rawValue },
        ])
    }
}
