import Locking
import Synchronization

/// Adds to any paged list what every list view needs: a loading row, refresh, and "load
/// more" at the end, with one load in flight at a time. It sits between a view and its data
/// source (`PagingDataSource`), keeps the items loaded so far, and tells its weak delegate
/// each step (`PagingEvent`). A second load asked for while one runs is refused (`false`):
/// the caller sees `isLoading` and waits for the event.
public final class PagingMediator<Item: Sendable>: Sendable {
    /// The list as loaded so far.
    public struct Snapshot: Sendable {
        public var items: [Item] = []
        /// Where the next page starts; `nil` before the first load and after the last page.
        public var nextCursor: String?
        /// Whether a first load happened (so `nextCursor == nil` means the end).
        public var loadedOnce = false
        /// The load under way, if any (`true`: a refresh).
        public var loading: Bool?
        public var lastError: String?

        /// Whether there is more to load.
        public var hasMore: Bool { !loadedOnce || nextCursor != nil }
        public var isLoading: Bool { loading != nil }
    }

    public let pageSize: Int
    private let dataSource: any PagingDataSource<Item>
    private let delegateReference = WeakReference<any PagingMediatorDelegate<Item>>()
    private let state = Locked(Snapshot())

    /// Pages through `dataSource` (held strongly: the mediator is the list's owner of it),
    /// `pageSize` items at a time (at least 1).
    public init(dataSource: any PagingDataSource<Item>, pageSize: Int = 50) {
        self.dataSource = dataSource
        self.pageSize = max(1, pageSize)
    }

    /// Who hears each step (held weakly).
    public var delegate: (any PagingMediatorDelegate<Item>)? {
        get { delegateReference.object }
        set { delegateReference.object = newValue }
    }

    public var snapshot: Snapshot { state.withLock { $0 } }

    /// Loads the first page again, replacing the list. `false` when a load is already under way.
    @discardableResult
    public func refresh() async -> Bool {
        await load(refresh: true)
    }

    /// Loads the next page and appends it. `false` when a load is under way or there is no more.
    @discardableResult
    public func loadMore() async -> Bool {
        await load(refresh: false)
    }

    private func load(refresh: Bool) async -> Bool {
        let cursor: String?? = state.withLock { state in
            guard state.loading == nil, refresh || state.hasMore else { return .none }
            state.loading = refresh
            return .some(refresh ? nil : state.nextCursor)
        }
        guard case .some(let after) = cursor else { return false }
        delegate?.mediator(self, did: .loading(refresh: refresh))
        let event: PagingEvent<Item>
        do {
            let page = try await dataSource.loadPage(after: after, limit: pageSize)
            let hasMore = state.withLock { state in
                if refresh { state.items = page.items } else { state.items += page.items }
                state.nextCursor = page.nextCursor
                state.loadedOnce = true
                state.lastError = nil
                return state.hasMore
            }
            event = .loaded(refresh: refresh, items: page.items, hasMore: hasMore)
        } catch {
            let message = String(describing: error)
            state.withLock { state in
                state.lastError = message
            }
            event = .failed(refresh: refresh, message: message)
        }
        // The slot is freed only after the delegate heard the outcome: otherwise the next load
        // could start, and its events overtake this one's (a client saw page 2 before page 1).
        delegate?.mediator(self, did: event)
        state.withLock { $0.loading = nil }
        return true
    }
}
