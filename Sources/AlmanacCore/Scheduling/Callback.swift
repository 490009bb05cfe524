/// A closure to keep in a `Locked` (or any generic container) and call from there.
///
/// A bare function type stored in `Locked<(@Sendable () -> Void)?>` is passed `inout` through
/// `withLock`'s generic body: Swift re-wraps it in two reabstraction thunks on the way in and
/// out and writes the wrapped closure back, so every `withLock { $0 }` made the stored closure
/// two calls deeper. A daemon whose views came and went 30,000 times called its refresh
/// scheduler through 50,000 nested thunks (and would have overflowed its stack); a closure
/// inside a struct is stored as it is.
public struct Callback: Sendable {
    private let body: @Sendable () -> Void

    public init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    /// Calls the closure.
    public func callAsFunction() {
        body()
    }
}
