/// The later reply of a method made from a typed definition (`Method.deferred(_:handler:)`):
/// a `DeferredReply` that is answered with the definition's reply values.
public struct TypedReply<Reply: BusArguments>: Sendable {
    /// The untyped reply underneath, for answers written by hand.
    public let deferred: DeferredReply

    init(_ deferred: DeferredReply) { self.deferred = deferred }

    /// Answers with `values`. Returns `false` (and sends nothing) when it was answered already.
    @discardableResult
    public func answer(_ values: Reply.Values) -> Bool {
        deferred.answer { try Reply.write(values, to: &$0) }
    }

    /// Answers with `result`: its value made into the reply by `transform`, or its error as
    /// `fail(_:)` sends it.
    @discardableResult
    public func answer<Success>(_ result: Result<Success, any Error>, _ transform: (Success) throws -> Reply.Values) -> Bool {
        deferred.answer(result) { writer, value in try Reply.write(try transform(value), to: &writer) }
    }

    /// Answers with an error (see `DeferredReply.fail(_:)`).
    @discardableResult
    public func fail(_ error: any Error) -> Bool { deferred.fail(error) }
}

extension TypedReply where Reply == Args<> {
    /// Answers an empty reply once `result` succeeds, or its error.
    @discardableResult
    public func answer<Success>(_ result: Result<Success, any Error>) -> Bool {
        deferred.answer(result) { _, _ in }
    }
}
