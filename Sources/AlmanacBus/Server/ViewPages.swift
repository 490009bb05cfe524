import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

/// Tells a view's owner what its list's `PagingMediator` does, as `Updated` signals to that
/// view: `{"kind": "loading", "refresh": b}` when its "Loading…" row should show, then
/// `{"kind": "page", "refresh": b, "items": aa{sv}, "hasMore": b}` or
/// `{"kind": "loadFailed", "refresh": b, "error": s}`. A load counts as the document's
/// activity (`Loading` true) from its "loading" to its outcome.
final class ViewPages: PagingMediatorDelegate, Sendable {
    let mediator: PagingMediator<Value>
    private let path: ObjectPath
    private let owner: BusName
    private let connection: Connection
    private let revision: @Sendable () -> UInt64
    private let loading: @Sendable (Bool) -> Void

    init(source: any PagingDataSource<Value>, pageSize: Int, path: ObjectPath, owner: BusName, connection: Connection,
         revision: @escaping @Sendable () -> UInt64, loading: @escaping @Sendable (Bool) -> Void) {
        mediator = PagingMediator(dataSource: source, pageSize: pageSize)
        self.path = path
        self.owner = owner
        self.connection = connection
        self.revision = revision
        self.loading = loading
        mediator.delegate = self
    }

    func mediator(_ mediator: PagingMediator<Value>, did event: PagingEvent<Value>) {
        if case .loading = event { loading(true) }
        defer { if case .loading = event {} else { loading(false) } }
        let data: [String: Value] = switch event {
        case .loading(let refresh):
            ["kind": .string("loading"), "refresh": .boolean(refresh)]
        case .loaded(let refresh, let items, let hasMore):
            ["kind": .string("page"), "refresh": .boolean(refresh), "hasMore": .boolean(hasMore),
             "items": .array(.dictionary(key: .string, value: .variant), items)]
        case .failed(let refresh, let message):
            ["kind": .string("loadFailed"), "refresh": .boolean(refresh), "error": .string(message)]
        }
        try? connection.emit(path: path, interface: BusContract.viewInterface, signal: BusContract.View1.updated,
                             destination: owner, arguments: revision(), data)
    }
}
