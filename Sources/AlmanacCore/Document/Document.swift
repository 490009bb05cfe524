public import AlmanacModels
import Locking
import Synchronization

/// A document: state with a revision that only grows, and a table of views that hear every
/// change in revision order (the Document–View pattern).
///
/// - `update` changes the state; when the body reports a change, the revision goes up by one
///   and every view's handler receives `.changed` with it.
/// - A view can `submit` a change; it reaches every view, the submitter included, marked with
///   its origin.
/// - Handlers run one event at a time, in revision order, on the thread that made the change
///   (or that is already delivering): they must not block. A handler may add or remove
///   views and make further changes; those are delivered after the current event, never
///   inside it. A view removed while an event is being delivered hears nothing more.
///
/// `Options` is what a view watches (its data source), as the document reads it.
public final class Document<State: Sendable, Change: Sendable, Options: ViewOptions>: Sendable {
    public typealias Event = DocumentEvent<State, Change>
    public typealias Handler = @Sendable (Event) -> Void

    /// A registered view: its options (its data source) and its handler.
    public struct View: Sendable {
        public let key: ViewKey
        public var options: Options
        let handler: Handler
    }

    private struct Storage {
        var state: State
        var revision: UInt64 = 0
        var views: [ViewKey: View] = [:]
        /// Events waiting to be delivered, in revision order, with the views that should hear them.
        var outbox: [(Event, only: ViewKey?)] = []
        var delivering = false
    }

    private let storage: Locked<Storage>

    public init(_ initial: State) {
        storage = Locked(Storage(state: initial))
    }

    // MARK: Reading

    /// The current state and its revision, taken together.
    public var snapshot: (revision: UInt64, state: State) {
        storage.withLock { ($0.revision, $0.state) }
    }

    /// The current state.
    public var state: State { storage.withLock { $0.state } }

    /// The current revision.
    public var revision: UInt64 { storage.withLock { $0.revision } }

    /// The registered views.
    public var views: [View] { storage.withLock { Array($0.views.values) } }

    /// Whether a change is still being delivered to the views (or waits to be): what a test
    /// that moves a simulated clock waits for too, since a view's handler may start work.
    public var isDelivering: Bool { storage.withLock { $0.delivering || !$0.outbox.isEmpty } }

    /// The number of registered views.
    public var viewCount: Int { storage.withLock { $0.views.count } }

    // MARK: Changing

    /// Changes the state. `body` returns the change it made, or `nil` when nothing changed
    /// (then no revision is spent and nobody is told). Returns the new revision, or `nil`.
    ///
    /// A `body` that throws must do so before it changes anything (validate, then mutate):
    /// the error reaches the caller and no view hears of it.
    @discardableResult
    public func update(origin: ViewKey? = nil, _ body: (inout State) throws -> Change?) throws -> UInt64? {
        // The error is carried out of the lock as a value: throwing through `withLock` from a
        // generic context crashed at run time (Swift 6.3.1, debug builds).
        let result: Result<UInt64?, any Error> = storage.withLock { storage in
            do {
                return .success(Self.record(try body(&storage.state), origin: origin, in: &storage))
            } catch {
                return .failure(error)
            }
        }
        let revision = try result.get()
        if revision != nil { deliver() }
        return revision
    }

    /// `update` for a body that cannot fail.
    @discardableResult
    public func update(origin: ViewKey? = nil, _ body: (inout State) -> Change?) -> UInt64? {
        let revision = storage.withLock { storage in Self.record(body(&storage.state), origin: origin, in: &storage) }
        if revision != nil { deliver() }
        return revision
    }

    /// Counts a change as a new revision and queues it for every view; `nil` when there was none.
    private static func record(_ change: Change?, origin: ViewKey?, in storage: inout Storage) -> UInt64? {
        guard let change else { return nil }
        storage.revision += 1
        storage.outbox.append((.changed(revision: storage.revision, change: change, origin: origin), only: nil))
        return storage.revision
    }

    /// A view submits a change: like `update`, but every view hears it marked with the
    /// submitter as its origin. Returns the revision after it (unchanged if nothing changed).
    @discardableResult
    public func submit(from key: ViewKey, _ apply: (inout State) throws -> Change?) throws -> UInt64 {
        try update(origin: key, apply) ?? revision
    }

    /// Replaces the whole state (a library restored from a backup): the revision goes up by
    /// one, and every view hears `.resynchronised` with the new state, in revision order with
    /// the changes around it. Returns the new revision.
    @discardableResult
    public func replace(with state: State) -> UInt64 {
        let revision = storage.withLock { storage in
            storage.state = state
            storage.revision += 1
            storage.outbox.append((.resynchronised(revision: storage.revision, state: state), only: nil))
            return storage.revision
        }
        deliver()
        return revision
    }

    // MARK: Views

    /// Registers a view (replacing one with the same key).
    public func addView(key: ViewKey, options: Options = Options(), handler: @escaping Handler) {
        storage.withLock { $0.views[key] = View(key: key, options: options, handler: handler) }
    }

    /// Changes a view's options; returns `false` when there is no such view.
    @discardableResult
    public func setOptions(_ options: Options, forView key: ViewKey) -> Bool {
        storage.withLock { storage in
            guard storage.views[key] != nil else { return false }
            storage.views[key]?.options = options
            return true
        }
    }

    /// Removes a view; returns it, or `nil` if it was not registered.
    @discardableResult
    public func removeView(key: ViewKey) -> View? {
        storage.withLock { $0.views.removeValue(forKey: key) }
    }

    /// Tells one view the whole current state, for a view that fell behind or just arrived.
    public func resynchronise(view key: ViewKey) {
        storage.withLock { storage in
            storage.outbox.append((.resynchronised(revision: storage.revision, state: storage.state), only: key))
        }
        deliver()
    }

    // MARK: Delivery

    /// Delivers queued events one at a time in order. Only one thread delivers at once;
    /// others just queue, so order holds without calling handlers under the lock.
    private func deliver() {
        let mayDeliver = storage.withLock { storage -> Bool in
            guard !storage.delivering else { return false }
            storage.delivering = true
            return true
        }
        guard mayDeliver else { return }
        while true {
            let next = storage.withLock { storage -> (Event, [ViewKey])? in
                guard !storage.outbox.isEmpty else {
                    storage.delivering = false
                    return nil
                }
                let (event, only) = storage.outbox.removeFirst()
                return (event, only.map { [$0] } ?? Array(storage.views.keys))
            }
            guard let (event, keys) = next else { return }
            for key in keys {
                // Looked up again for each view: one removed by an earlier handler hears nothing.
                guard let handler = storage.withLock({ $0.views[key]?.handler }) else { continue }
                handler(event)
            }
        }
    }
}
