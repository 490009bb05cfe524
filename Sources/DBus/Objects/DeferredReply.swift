import Synchronization

/// The reply to a method call that a handler answers later (a `Method` made with `deferred:`).
///
/// Answer it exactly once, from any thread: with `answer(_:)` or `fail(_:)`. Later answers
/// are ignored. A reply dropped unanswered answers `Failed` by itself, so no caller waits
/// for its timeout because a handler forgot it.
public final class DeferredReply: Sendable {
    private let call: Message
    private let core: ConnectionCore
    private let answered = Atomic<Bool>(false)
    /// The reply's signature the method declares (checked in debug builds).
    private let signature: String?

    init(to call: Message, on core: ConnectionCore, expecting signature: String? = nil) {
        self.call = call
        self.core = core
        self.signature = signature
    }

    deinit {
        if !answered.load(ordering: .acquiring) {
            core.replyError(call, BusError.failed("The call was dropped without an answer."))
        }
    }

    /// Sends the reply whose arguments `body` writes; an error thrown by `body` becomes an
    /// error reply instead. Returns `false` (and sends nothing) when it was answered already.
    @discardableResult
    public func answer(_ body: (inout MessageWriter) throws -> Void) -> Bool {
        guard take() else { return false }
        core.reply(to: call, expecting: signature, body)
        return true
    }

    /// Answers with an error: a `BusError` with its name, any other error as the connection's
    /// rule says (`Connection.replyToErrors(with:)`; `Failed` without one).
    /// Returns `false` (and sends nothing) when it was answered already.
    @discardableResult
    public func fail(_ error: any Error) -> Bool {
        guard take() else { return false }
        core.replyError(call, error)
        return true
    }

    /// Answers with `result`: its value as `body` writes it, or its error as `fail(_:)`
    /// sends it. Returns `false` (and sends nothing) when it was answered already.
    @discardableResult
    public func answer<Success>(_ result: Result<Success, any Error>, _ body: (inout MessageWriter, Success) throws -> Void) -> Bool {
        switch result {
        case .success(let value): answer { try body(&$0, value) }
        case .failure(let error): fail(error)
        }
    }

    /// Claims the one answer; `false` when it was given already.
    private func take() -> Bool {
        !answered.exchange(true, ordering: .acquiringAndReleasing)
    }
}
