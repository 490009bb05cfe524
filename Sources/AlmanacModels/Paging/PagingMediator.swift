import Locking
import Synchronization

/// Adds to any paged list what every list view needs: a loading row, refresh, and "load
/// more" at the end, with one load in flight at a time. It sits between a view and its data
/// source (`PagingDataSource`), keeps the items loaded so far, and tells its weak delegate
/// each step (`PagingEvent`). A second load asked for while one runs is refused (`false`):
/// the caller sees `isLoading` and waits for the event. The list and the events still to be
/// heard are one value under one lock: events reach the delegate in order, one at a time,
/// told by whichever load found nobody telling (never with the lock held).
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
    private let state = Locked(State())

    /// The list, and the events its loads have for the delegate.
    private struct State {
        var snapshot = Snapshot()
        /// Events not yet told, oldest first, each with the delegate of its load; `endsLoad`:
        /// the load's slot is freed as it is told.
        var untold: [(event: PagingEvent<Item>, delegate: (any PagingMediatorDelegate<Item>)?, endsLoad: Bool)] = []
        /// Whether a load is telling the delegate the untold events.
        var telling = false

        /// The next event to tell, marked as being told; `nil` (and nobody telling) when none is left.
        mutating func next() -> (event: PagingEvent<Item>, delegate: (any PagingMediatorDelegate<Item>)?)? {
            guard !untold.isEmpty else {
                telling = false
                return nil
            }
            let (event, delegate, endsLoad) = untold.removeFirst()
            if endsLoad { snapshot.loading = nil }
            return (event, delegate)
        }
    }

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

    public var snapshot: Snapshot { state.withLock { $0.snapshot } }

    /// Loads the first page again, replacing the list. `false` when a load is already under way.
    @discardableResult
    public func refresh() async -> Bool {
        await load(refresh: true)
    }

    /// Loads the next page and appends it. `false` when a load is under way or there is no more.
    ///
    /// Both return once the load is done, not always once the delegate has heard it: while
    /// another load's events are still being told, that teller tells this one's too, in
    /// order, just after. A caller that needs the delegate to have heard waits on the delegate.
    @discardableResult
    public func loadMore() async -> Bool {
        await load(refresh: false)
    }

    /// Starts a load (the next page, or the first again when `refresh`) and returns at once:
    /// `false` when a load is under way or there is no more. The delegate hears the rest.
    /// For callers that must answer before the page comes (a bus method, whose caller
    /// would otherwise wait as long as a feed takes).
    public func start(refresh: Bool) -> Bool {
        guard let after = claim(refresh: refresh) else { return false }
        let delegate = delegate
        Task { await self.run(refresh: refresh, after: after, delegate: delegate) }
        return true
    }

    private func load(refresh: Bool) async -> Bool {
        guard let after = claim(refresh: refresh) else { return false }
        await run(refresh: refresh, after: after, delegate: delegate)
        return true
    }

    /// Takes the one load slot: where the load starts (`.some(nil)`: the first page), or
    /// `nil` when it cannot start.
    private func claim(refresh: Bool) -> String?? {
        state.withLock { state in
            guard state.snapshot.loading == nil, refresh || state.snapshot.hasMore else { return .none }
            state.snapshot.loading = refresh
            return .some(refresh ? nil : state.snapshot.nextCursor)
        }
    }

    /// `delegate` is held for the whole load: one that heard it begin hears it end (a view
    /// that counted a fetch as its page began must uncount it, though it was let go meanwhile).
    private func run(refresh: Bool, after: String?, delegate: (any PagingMediatorDelegate<Item>)?) async {
        tell(.loading(refresh: refresh), to: delegate, endingLoad: false)
        let event: PagingEvent<Item>
        do {
            let page = try await dataSource.loadPage(after: after, limit: pageSize)
            let hasMore = state.withLock { state in
                if refresh { state.snapshot.items = page.items } else { state.snapshot.items += page.items }
                state.snapshot.nextCursor = page.nextCursor
                state.snapshot.loadedOnce = true
                state.snapshot.lastError = nil
                return state.snapshot.hasMore
            }
            event = .loaded(refresh: refresh, items: page.items, hasMore: hasMore)
        } catch {
            let message = String(describing: error)
            state.withLock { state in
                state.snapshot.lastError = message
            }
            event = .failed(refresh: refresh, message: message)
        }
        // The slot is freed as the delegate hears the outcome, so that whoever hears it may
        // load the next page at once (a bus client calls LoadMore as the page arrives). The
        // next load's events are told after this one: they never overtake it (a client once
        // saw page 2 before page 1).
        tell(event, to: delegate, endingLoad: true)
    }

    /// Queues `event` for `delegate`; when nobody is telling the delegate, tells it every
    /// untold event, in order, until none is left.
    private func tell(_ event: PagingEvent<Item>, to delegate: (any PagingMediatorDelegate<Item>)?, endingLoad: Bool) {
        var next = state.withLock { state -> (event: PagingEvent<Item>, delegate: (any PagingMediatorDelegate<Item>)?)? in
            state.untold.append((event, delegate, endingLoad))
            guard !state.telling else { return nil }
            state.telling = true
            return state.next()
        }
        while let (event, delegate) = next {
            delegate?.mediator(self, did: event)
            next = state.withLock { $0.next() }
        }
    }
}
