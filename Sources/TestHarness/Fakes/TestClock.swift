public import Foundation
import Locking
import Synchronization

/// A clock tests move by hand, for documents and services that take `clock: () -> Date`.
public final class TestClock: Sendable {
    private let current = Locked(Date(timeIntervalSince1970: 1_800_000_000))

    public init() {}

    /// The time now, as far as the test has moved it.
    public var now: Date { current.withLock { $0 } }

    /// Moves the clock on by `seconds`.
    public func advance(_ seconds: Double) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
