import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

/// Tells a view's owner what its list's `PagingMediator` does, as `Updated` signals to that
/// view (`ListStep`): "loading" when its "Loading…" row should show, then the page or
/// the failure. A load counts as the document's activity (`Loading` true) from its
/// "loading" to its outcome.
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
        _ = try? connection.emit(BusContract.View1.updated, path: path, destination: owner, (revision(), try WireCoding.fields(event)))
    }
}
