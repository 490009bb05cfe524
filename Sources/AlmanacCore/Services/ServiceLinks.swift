import AlmanacModels
/// A service's weak links to its data source and its delegate, readable and replaceable
/// from any thread. Services keep one; the protocols' extensions expose it as
/// `dataSource` and `delegate`.
public final class ServiceLinks<DataSource: Sendable, Delegate: Sendable>: Sendable {
    private let dataSourceReference = WeakReference<DataSource>()
    private let delegateReference = WeakReference<Delegate>()

    public init() {}

    /// What to fetch; held weakly.
    public var dataSource: DataSource? {
        get { dataSourceReference.object }
        set { dataSourceReference.object = newValue }
    }

    /// Who hears the results; held weakly.
    public var delegate: Delegate? {
        get { delegateReference.object }
        set { delegateReference.object = newValue }
    }
}
