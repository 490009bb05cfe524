/// A handler watching the signals that match a rule (`Connection.onSignals(matching:_:)`):
/// `cancel()` stops it and removes its rule from the bus; so does the connection closing.
public final class SignalWatch: Sendable {
    private let cancelling: @Sendable () -> Void

    init(cancel: @escaping @Sendable () -> Void) {
        cancelling = cancel
    }

    /// Stops the handler being called (a call under way on the connection's thread may still
    /// finish) and removes the rule from the bus. Calling it again does nothing.
    public func cancel() {
        cancelling()
    }
}
