public import AlmanacCore
import AlmanacWire
import AlmanacModels
public import DBus
import Locking
public import Logging
import Synchronization
import FoundationEssentials

/// One document on the bus: `org.almanac.Document1` and the domain interface at the
/// document's path, and an `org.almanac.View1` object for every view a client registers.
///
/// Every change becomes a broadcast `Changed(t, a{sv})` plus `PropertiesChanged` for
/// `Revision` (and `LastError`), and a unicast `Updated(t, a{sv})` to each view whose
/// options it concerns, all in revision order (the document delivers in order).
public final class DocumentObject<Adapter: DocumentAdapter>: Sendable {
    /// How many views one client may hold on one document.
    public static var maximumViewsPerClient: Int { 64 }

    /// The document's views on the bus, one value under one lock: each view (its owner,
    /// options, update window and list), the numbering, the probes under way and the last
    /// slice made. One value, so that delivering a change to a view is one turn of it.
    struct Views {
        var byPath: [ObjectPath: RemoteView<Adapter.Options>] = [:]
        var nextNumber: UInt64 = 1
        /// The clients a flow-control probe is under way for (`probe`).
        var probing: Set<BusName> = []
        /// The last slice made for a view, with the change and the options it was made for.
        var lastSlice: (revision: UInt64, options: Adapter.Options, data: [String: Value]?)?
    }

    let adapter: Adapter
    let connection: Connection
    let path: ObjectPath
    let views = Locked(Views())
    /// How long a client has to answer a probe's `Peer.Ping` before the bus is asked.
    static var probeTimeout: Duration { .seconds(2) }
    /// Items per page of a view's list.
    public static var pageSize: Int { 50 }
    private let logger: Logger
    /// Refreshes asked for and not yet done (`refreshesUnderWay`).
    private let refreshing = Atomic<Int>(0)
    /// The daemon's places for views, shared by its documents.
    let allowance: ViewAllowance
    private static var broadcaster: ViewKey { ViewKey("almanacd:broadcast") }

    public init(adapter: Adapter, connection: Connection, allowance: ViewAllowance = ViewAllowance(),
                logger: Logger) {
        self.adapter = adapter
        self.allowance = allowance
        self.connection = connection
        self.path = BusContract.documentPath(adapter.name)
        var logger = logger
        logger[metadataKey: "document"] = "\(adapter.name.rawValue)"
        self.logger = logger
    }

    /// Exports the document and starts broadcasting its changes.
    public func export() throws {
        adapter.document.addView(key: Self.broadcaster) { [weak self] event in self?.broadcast(event) }
        // The document's activity decides; the bus announces.
        adapter.activity.observe { [weak self] event in
            switch event {
            case .loading(let loading): try? self?.emitProperties([BusContract.Document1.loading.entry(loading)])
            case .cleared: try? self?.emitProperties([BusContract.Document1.lastError.entry("")])
            case .replaced(let message): try? self?.emitProperties([BusContract.Document1.lastError.entry(message)])
            }
        }
        try connection.export([documentInterface(), adapter.domainInterface(connection: connection)], at: path)
    }

    /// Stops broadcasting and removes the document and its views from the bus.
    public func unexport() {
        adapter.document.removeView(key: Self.broadcaster)
        let paths = views.withLock { views in
            defer { views.byPath.removeAll() }
            return Array(views.byPath.keys)
        }
        allowance.giveBack(paths.count)
        for path in paths {
            adapter.document.removeView(key: ViewKey(path.rawValue))
            try? connection.unexport(path)
        }
        try? connection.unexport(path)
    }

    public var viewCount: Int { views.withLock { $0.byPath.count } }

    /// The unique names that hold views of this document.
    public var owners: [BusName] { views.withLock { Array(Set($0.byPath.values.map(\.owner))) } }

    // MARK: Broadcasting

    private func broadcast(_ event: DocumentEvent<Adapter.State, Adapter.Change>) {
        // The broadcaster hears a resync only when the whole state was replaced (a restore):
        // a view that fell behind is resynchronised alone.
        if case .resynchronised(let revision, let state) = event { return broadcastRestored(state, at: revision) }
        guard case .changed(let revision, let change, _) = event else { return }
        do {
            let changes = try WireCoding.fields(change)
            try emitChange(BusContract.Document1.changed, at: path, to: nil, revision: revision, changes)
            var properties = [BusContract.Document1.revision.entry(revision)]
            if let failure = adapter.failure(in: change) { properties.append(BusContract.Document1.lastError.entry(failure)) }
            try emitProperties(properties)
            if let (interface, changed) = try adapter.domainProperties(changedBy: change), !changed.isEmpty {
                try emitProperties(changed.sorted { $0.0 < $1.0 }, of: interface)
            }
        } catch {
            // Every client that watches the bus missed this change.
            logger.error("could not broadcast a change", metadata: ["revision": "\(revision)", "error": "\(error)"])
        }
    }

    /// `Changed` with `{"kind": "restored"}` (read the state again), and every property the new
    /// state may have changed.
    private func broadcastRestored(_ state: Adapter.State, at revision: UInt64) {
        do {
            try emitChange(BusContract.Document1.changed, at: path, to: nil, revision: revision, try WireCoding.fields(ViewUpdateMarker<Value>.restored))
            try emitProperties([BusContract.Document1.revision.entry(revision)])
            if let (interface, properties) = try adapter.domainProperties(of: state), !properties.isEmpty {
                try emitProperties(properties.sorted { $0.0 < $1.0 }, of: interface)
            }
        } catch {
            logger.error("could not broadcast a restored state", metadata: ["revision": "\(revision)", "error": "\(error)"])
        }
    }

    /// Sends `Changed` or `Updated` with `data`; one too large for a bus message goes as
    /// `{"kind": "tooLarge", "was": <its kind>}` at the same revision instead, which tells
    /// the client to read the state again (bus-api.md).
    /// Returns the signal's body length in bytes.
    @discardableResult
    private func emitChange(_ signal: BusSignal<Args<UInt64, [String: Value]>>, at path: ObjectPath, to destination: BusName?,
                            revision: UInt64, _ data: [String: Value]) throws -> Int {
        do {
            return try connection.emit(signal, path: path, destination: destination, (revision, data))
        } catch let error as BusError where error.name == .limitsExceeded {
            logger.warning("a change too large for the bus went as tooLarge", metadata: ["signal": "\(signal.name)", "revision": "\(revision)", "error": "\(error.message)"])
            let marker = try WireCoding.fields(ViewUpdateMarker<Value>.tooLarge(was: data["kind"]?.stringValue ?? ""))
            return try connection.emit(signal, path: path, destination: destination, (revision, marker))
        }
    }

    /// Announces `properties` (distinct names) with one `PropertiesChanged`.
    private func emitProperties(_ properties: [(String, Value)], of interface: InterfaceName = BusContract.documentInterface) throws {
        try connection.emitPropertiesChanged(path: path, interface: interface, values: properties)
    }

    // MARK: Views

    func addView(owner: BusName, rawOptions: [String: Value]) throws -> ObjectPath {
        let options = try Adapter.Codec.viewOptions(rawOptions)
        let path: ObjectPath = try views.withLock { views in
            let owned = views.byPath.values.lazy.filter { $0.owner == owner }.count
            guard owned < Self.maximumViewsPerClient else {
                throw BusError(.limitsExceeded, "A client may hold at most \(Self.maximumViewsPerClient) views of the \(adapter.name) document; remove some first.")
            }
            try allowance.take()
            let path = BusContract.viewPath(adapter.name, views.nextNumber)
            views.nextNumber += 1
            views.byPath[path] = RemoteView(path: path, owner: owner, rawOptions: rawOptions, options: options)
            return path
        }
        do {
            try connection.export([viewInterface(path: path)], at: path)
        } catch {
            _ = views.withLock { $0.byPath.removeValue(forKey: path) }
            allowance.giveBack()
            throw error
        }
        adapter.document.addView(key: ViewKey(path.rawValue), options: options) { [weak self] event in
            self?.deliver(event, to: path)
        }
        announceViewCount()
        logger.debug("view added", metadata: ["view": "\(path)", "owner": "\(owner)", "options": "\(options)"])
        refreshSoon(options)
        return path
    }

    /// Removes a view; `caller` must own it (nil: the daemon itself, for vanished owners).
    func removeView(_ path: ObjectPath, caller: BusName?) throws {
        try views.withLock { views in
            guard let view = views.byPath[path] else {
                throw BusError(BusContract.noSuchView, "\(path) is not a view of the \(adapter.name) document.")
            }
            if let caller, caller != view.owner {
                throw BusError.accessDenied("View \(path) belongs to \(view.owner); only its owner may change or remove it.")
            }
            views.byPath[path] = nil
        }
        allowance.giveBack()
        adapter.document.removeView(key: ViewKey(path.rawValue))
        try? connection.unexport(path)
        announceViewCount()
        adapter.viewsChanged()
        logger.debug("view removed", metadata: ["view": "\(path)"])
    }

    /// Removes every view `owner` holds (it left the bus); returns how many.
    @discardableResult
    public func removeViews(ownedBy owner: BusName) -> Int {
        let paths = views.withLock { $0.byPath.values.filter { $0.owner == owner }.map(\.path) }
        for path in paths { try? removeView(path, caller: nil) }
        return paths.count
    }

    func setOptions(_ path: ObjectPath, caller: BusName?, rawOptions: [String: Value]) throws {
        let options = try Adapter.Codec.viewOptions(rawOptions)
        try views.withLock { views in
            guard let view = views.byPath[path] else {
                throw BusError(BusContract.noSuchView, "\(path) is not a view of the \(adapter.name) document.")
            }
            guard caller == view.owner else {
                throw BusError.accessDenied("View \(path) belongs to \(view.owner); only its owner may change or remove it.")
            }
            views.byPath[path]?.rawOptions = rawOptions
            views.byPath[path]?.options = options
            // The list follows the options: paged again from its start.
            views.byPath[path]?.pages = nil
        }
        adapter.document.setOptions(options, forView: ViewKey(path.rawValue))
        adapter.viewsChanged()
        try? connection.emitPropertiesChanged(path: path, interface: BusContract.viewInterface, values: [BusContract.View1.options.entry(Self.sortedOptions(rawOptions))])
        refreshSoon(options)
    }

    /// Tells a view's owner its slice of a change, within the view's `UpdateWindow`: past it
    /// the view is behind and hears nothing until it catches up, then one `resync`. The view,
    /// its slice and its window are taken in one turn of the table; what was sent, in a second.
    private func deliver(_ event: DocumentEvent<Adapter.State, Adapter.Change>, to path: ObjectPath) {
        switch event {
        case .changed(let revision, let change, _):
            let admitted: (view: RemoteView<Adapter.Options>, data: [String: Value]?)?
            do {
                admitted = try views.withLock { views -> (view: RemoteView<Adapter.Options>, data: [String: Value]?)? in
                    guard let view = views.byPath[path], !view.window.behind,
                          let data = try views.slice(change, at: revision, for: view.options) else { return nil }
                    return (view, views.byPath[path]?.window.admit() ?? false ? data : nil)
                }
            } catch {
                // The view misses this change, as one it could not be sent.
                logger.error("could not encode a change for a view", metadata: ["view": "\(path)", "revision": "\(revision)", "error": "\(error)"])
                return
            }
            guard let (view, admittedData) = admitted else { return }
            guard let data = admittedData else {
                logger.debug("a view fell behind", metadata: ["view": "\(path)", "revision": "\(revision)"])
                probe(view.owner)
                return
            }
            let bytes: Int
            do {
                bytes = try emitChange(BusContract.View1.updated, at: path, to: view.owner, revision: revision, data)
            } catch {
                // The view's owner missed this change.
                logger.error("could not update a view", metadata: ["view": "\(path)", "revision": "\(revision)", "error": "\(error)"])
                return
            }
            if views.withLock({ views in
                views.byPath[path]?.window.sent(revision, bytes: bytes)
                return views.byPath[path]?.window.wantsProbe ?? false
            }) { probe(view.owner) }
        case .resynchronised(let revision, let state):
            guard let view = views.withLock({ $0.byPath[path] }) else { return }
            var bytes = 0
            do {
                let data = try WireCoding.fields(ViewUpdateMarker.resync(try Adapter.Codec.snapshot(state, for: view.options)))
                bytes = try emitChange(BusContract.View1.updated, at: path, to: view.owner, revision: revision, data)
            } catch {
                logger.error("could not resynchronise a view", metadata: ["view": "\(path)", "revision": "\(revision)", "error": "\(error)"])
            }
            views.withLock { $0.byPath[path]?.window.resynced(at: revision, bytes: bytes) }
        }
    }

    // MARK: Flow control

    /// `View1.Ack`: the owner has the view's updates up to `revision`.
    func acknowledge(_ path: ObjectPath, caller: BusName?, upTo revision: UInt64) throws {
        let catchingUp = try views.withLock { views -> Bool in
            guard let view = views.byPath[path] else { throw BusError(BusContract.noSuchView, "\(path) is not a view of the \(adapter.name) document.") }
            guard caller == view.owner else {
                throw BusError.accessDenied("View \(path) belongs to \(view.owner); only its owner acknowledges its updates.")
            }
            return views.byPath[path]?.window.acknowledge(upTo: revision) ?? false
        }
        if catchingUp { adapter.document.resynchronise(view: ViewKey(path.rawValue)) }
    }

    /// The client `owner` has read every update of its views up to `revisions` (per view;
    /// `nil`: the newest each was sent). Views that were behind and can catch up are
    /// resynchronised: the document delivers their resync in order with its changes.
    func acknowledge(_ owner: BusName, upTo revisions: [ObjectPath: UInt64]? = nil) {
        resynchronise(views.withLock { $0.acknowledge(owner, upTo: revisions) })
    }

    /// Resynchronises the views that caught up (`Views.acknowledge`).
    private func resynchronise(_ catchingUp: [ObjectPath]) {
        for path in catchingUp {
            logger.debug("a view caught up", metadata: ["view": "\(path)"])
            adapter.document.resynchronise(view: ViewKey(path.rawValue))
        }
    }

    /// Finds out how far `owner` has read, when none of its probes is under way: it is sent
    /// `Peer.Ping`, which it can only answer after reading everything sent to it before (the
    /// bus keeps one connection's messages in order). An answer, or an error it sent back,
    /// acknowledges those updates. No answer within `probeTimeout`: the bus is asked how
    /// many messages it holds for the client (`Debug.Stats.GetConnectionStats`, where the
    /// bus offers it); few means the client reads, and acknowledges as well. While the
    /// client's views are behind, the probe is sent again.
    private func probe(_ owner: BusName) {
        let sentBefore: [ObjectPath: UInt64]? = views.withLock { views in
            guard views.probing.insert(owner).inserted else { return nil }
            return views.newestSent(to: owner)
        }
        guard let sentBefore else { return }
        Task { [weak self, connection] in
            var acknowledged = false
            do {
                _ = try await connection.call(owner, path: .root, interface: .peer, method: "Ping", timeout: Self.probeTimeout) { _ in }
                acknowledged = true
            } catch let error as BusError where error.name != .noReply && error.name != .serviceUnknown && error.name != .disconnected
                && error.name != .nameHasNoOwner && error.name != .timeout {
                // The client read the ping and said it has no such method: it read what came before.
                acknowledged = true
            } catch {}
            guard let self else { return }
            var upTo = sentBefore
            if !acknowledged, let queued = await self.queuedMessages(for: owner) {
                // What the bus holds for the client now covers everything sent until now.
                if queued < UpdateWindow.size / 2 {
                    acknowledged = true
                    upTo = self.views.withLock { $0.newestSent(to: owner) }
                }
            }
            // The probe is over, what it learnt is acknowledged, and whether to ask again (a
            // client that does not read, one probe at a time) decided: one turn of the table.
            let (catchingUp, waiting) = self.views.withLock { views in
                views.probing.remove(owner)
                let catchingUp = acknowledged ? views.acknowledge(owner, upTo: upTo) : []
                return (catchingUp, views.byPath.values.contains { $0.owner == owner && $0.window.wantsProbe })
            }
            self.resynchronise(catchingUp)
            if waiting { self.probe(owner) }
        }
    }

    /// How many messages the bus holds for `owner`, from `Debug.Stats.GetConnectionStats`;
    /// `nil` where the bus does not offer it.
    private func queuedMessages(for owner: BusName) async -> Int? {
        guard let reply = try? await connection.call(.bus, path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus.Debug.Stats",
                                                    method: "GetConnectionStats", timeout: .seconds(5), arguments: owner.rawValue),
              let (stats) = try? reply.arguments([String: Value].self),
              case .uint32(let queued)? = stats["OutgoingMessages"]?.unwrapped
        else { return nil }
        return Int(queued)
    }

    // MARK: Lists

    /// The next page of a view's list (or its first again, when `refresh`), which arrives as
    /// `Updated` to the owner; `false` when a load for this view is under way (one at a time)
    /// or there is no more. Owner only.
    func loadPage(_ path: ObjectPath, caller: BusName?, refresh: Bool) async throws -> Bool {
        let view = try views.withLock { views -> RemoteView<Adapter.Options> in
            guard let view = views.byPath[path] else { throw BusError(BusContract.noSuchView, "\(path) is not a view of the \(adapter.name) document.") }
            guard caller == view.owner else {
                throw BusError.accessDenied("View \(path) belongs to \(view.owner); only its owner may page its list.")
            }
            return view
        }
        guard let source = adapter.pageSource(for: view.options) else {
            throw BusError(.notSupported, "The \(adapter.name) document has no lists to page.")
        }
        let document = adapter.document
        let list = try views.withLock { views in
            // Removed meanwhile: no list for it.
            guard views.byPath[path] != nil else { throw BusError(BusContract.noSuchView, "\(path) is not a view of the \(adapter.name) document.") }
            if let list = views.byPath[path]?.pages { return list }
            let list = ViewPages(source: source, pageSize: Self.pageSize, path: path, owner: view.owner, connection: connection,
                                 revision: { document.revision }, loading: { [weak self] in self?.setLoading($0) })
            views.byPath[path]?.pages = list
            return list
        }
        // Answered as the load starts: the page comes as `Updated`, however long a feed takes.
        return list.mediator.start(refresh: refresh)
    }

    // MARK: Refreshing

    /// Fetches what `request` calls for, with `Loading` true meanwhile (and untouched when
    /// there is nothing to fetch).
    public func refresh(_ request: RefreshRequest<Adapter.Options> = .everything) async {
        refreshing.add(1, ordering: .relaxed)
        defer { refreshing.subtract(1, ordering: .relaxed) }
        guard let work = await adapter.claim(request) else { return }
        setLoading(true)
        await adapter.perform(work)
        setLoading(false)
    }

    /// Refreshes under way (a new view's, `Refresh()`, a catch-up's), counted from when they
    /// are asked for: what a test that moves a simulated clock waits for, with the schedulers.
    public var refreshesUnderWay: Int { refreshing.load(ordering: .relaxed) }

    private func refreshSoon(_ options: Adapter.Options) {
        guard !options.namesNothing else { return }
        // Counted before the task starts, so that no moment between the call and the fetch looks idle.
        refreshing.add(1, ordering: .relaxed)
        Task {
            await refresh(.view(options))
            refreshing.subtract(1, ordering: .relaxed)
        }
    }

    /// Counts a fetch or a view's page load starting or ending with the document; `Loading`
    /// is announced (by the observer set in `export`) when that flips it, in order: under the
    /// activity's lock.
    private func setLoading(_ starting: Bool) {
        adapter.activity.fetch(starting: starting)
    }

    /// Announces `ViewCount`, read and sent under the lock so that the last announcement is
    /// the current count.
    private func announceViewCount() {
        views.withLock { views in
            try? emitProperties([BusContract.Document1.viewCount.entry(UInt32(views.byPath.count))])
        }
    }

}
