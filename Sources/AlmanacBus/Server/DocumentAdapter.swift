public import AlmanacCore
public import AlmanacModels
public import AlmanacWire
public import DBus
public import FoundationEssentials

/// What the bus layer needs to know about one kind of document to serve it: how its state
/// and changes look on the bus, its codec (which view options it takes, what a view's slice
/// of the state and of a change is, what `Submit` accepts), and how to refresh it.
public protocol DocumentAdapter: Sendable {
    /// Its state and its changes, each with its one shape on the bus (`WireShaped`).
    associatedtype State: Sendable, WireShaped
    associatedtype Change: Sendable, WireShaped
    /// What one refresh fetches (for weather, the places).
    associatedtype Work: Sendable
    /// What a view watches (`WeatherViewOptions`, `PodcastsViewOptions`).
    associatedtype Options: ViewOptions
    /// Reads a view's options and a `Submit`, and slices the state and changes for a view
    /// (`WeatherCodec`, `PodcastsCodec`): `DocumentObject` calls it for every document.
    associatedtype Codec: DocumentCodec where Codec.State == State, Codec.Change == Change, Codec.Options == Options

    var name: DocumentName { get }
    var document: Document<State, Change, Options> { get }
    /// Its fetches under way and last failure (`Loading`, `LastError`).
    var activity: DocumentActivity { get }
    /// When its schedule next fetches something by itself, on the daemon's clock (`NextRefresh`;
    /// `nil`: nothing is wanted, or all of it is being fetched).
    var nextRefresh: Date? { get }
    /// The failure a change reports, for `LastError`; `nil` for a change that is not a failure.
    func failure(in change: Change) -> String?
    /// Sends what a view (or, with no `view`, a method or a setting) submitted to the
    /// document's owner: throws the document's refusal of it at once when it can tell, else
    /// `answer` gets the new revision, or the document's refusal (a `NamedError`:
    /// `InvalidArgs`, `UnknownLocation`, or `Failed` when the disk refused, and then nothing
    /// changed), once the burst that holds it is saved. It must not wait for the owner.
    func send(_ submission: Codec.Submission, from view: ViewKey?, answer: @escaping @Sendable (Result<UInt64, any Error>) -> Void) throws
    /// Runs `work` on the document's owner once it has done everything sent to it before:
    /// a read that follows a client's `Submit`s (`GetState`) sees them applied. `work` must
    /// not block.
    func afterOwner(_ work: @escaping @Sendable () -> Void)
    /// What `request` calls for now, claimed by the document so that no other refresh
    /// fetches it as well; `nil` when there is nothing to do (then `Loading` does not flicker).
    /// Async: a new view's claim waits for its document's owner (the weather document serves
    /// the place's kept reading first), without holding a thread.
    func claim(_ request: RefreshRequest<Options>) async -> Work?
    /// Fetches `work`.
    func perform(_ work: Work) async
    /// Views came, went or changed their options.
    func viewsChanged()
    /// The domain interface's properties that `change` changed, to announce with
    /// `PropertiesChanged` (`nil` when none did).
    func domainProperties(changedBy change: Change) throws -> (InterfaceName, [(String, Value)])?
    /// Every property of the domain interface, as `state` has them: announced when the whole
    /// state was replaced (a library restored from a backup).
    func domainProperties(of state: State) throws -> (InterfaceName, [(String, Value)])?
    /// The list a view with `options` pages through with `LoadMore`/`RefreshList` (items
    /// encoded as they travel), or `nil` for a document without lists.
    func pageSource(for options: Options) -> (any PagingDataSource<Value>)?
    /// The document's domain interface (`org.almanac.Weather1`, `org.almanac.Podcasts1`).
    func domainInterface(connection: Connection) throws -> Interface
}

extension DocumentAdapter {
    public func pageSource(for options: Options) -> (any PagingDataSource<Value>)? { nil }

    /// Applies a `Submit`'s `a{sv}`: its codec reads it (`InvalidArgs` at once for input it
    /// refuses), then it is `send`'s.
    public func submit(_ values: [String: Value], from view: ViewKey?, answer: @escaping @Sendable (Result<UInt64, any Error>) -> Void) throws {
        try send(Codec.submission(values), from: view, answer: answer)
    }
}
