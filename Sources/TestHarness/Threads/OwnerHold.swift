import Dispatch

/// Holds a document's owner (its `onOwner`) until `release()`, so that what is sent to it
/// meanwhile waits in its mailbox and forms one burst; `drain` waits until the owner has
/// done everything sent to it before.
public final class OwnerHold: Sendable {
    private let gate = DispatchSemaphore(value: 0)

    /// Holds the owner that `post` (a document's `onOwner`) runs work on, and returns once it
    /// is held: what is sent to it from then on waits in its mailbox.
    public init(_ post: (@escaping @Sendable () -> Void) -> Void) {
        let held = DispatchSemaphore(value: 0)
        post { [gate] in
            held.signal()
            gate.wait()
        }
        held.wait()
    }

    /// Lets the owner go on.
    public func release() {
        gate.signal()
    }

    /// Waits until the owner that `post` runs work on has done everything sent to it before.
    public static func drain(_ post: (@escaping @Sendable () -> Void) -> Void) {
        let done = DispatchSemaphore(value: 0)
        post { done.signal() }
        done.wait()
    }
}
