import Locking
import Synchronization

/// A weak reference that can be read and replaced from any thread: how services hold their
/// data source and delegate without owning them. `Object` is typically a class-bound
/// protocol's existential (`any WeatherServiceDelegate`).
public final class WeakReference<Object: Sendable>: Sendable {
    /// Reached only under the lock; only `Object`s (Sendable) go in, and only `Object`s come out.
    private struct Box {
        weak var object: AnyObject?
    }

    private let box = Locked(Box())

    public init() {}

    /// The object, or `nil` once it is gone.
    public var object: Object? {
        get { box.withLock { $0.object as? Object } }
        set { box.withLock { $0.object = newValue.map { $0 as AnyObject } } }
    }
}
