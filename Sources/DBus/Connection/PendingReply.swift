internal import CDBus
import Locking
import Synchronization

/// One outstanding method call: the continuation waiting for its reply and the libdbus
/// pending call, resumed exactly once whichever comes first — reply, timeout (libdbus
/// answers `NoReply`), cancellation or disconnection.
final class PendingReply: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Message, any Error>?
        var cancelled = false
        /// The libdbus pending call (`DBusPendingCall *`) while it is outstanding, as bits:
        /// it is only ever used on the loop thread.
        var pending: UInt?
    }

    private let state = Locked(State())
    /// Called once the caller has been answered, whatever the answer.
    private let onFinish: @Sendable (PendingReply) -> Void

    init(onFinish: @escaping @Sendable (PendingReply) -> Void) {
        self.onFinish = onFinish
    }

    func wait(_ continuation: CheckedContinuation<Message, any Error>) {
        let cancelled = state.withLock { state -> Bool in
            state.continuation = continuation
            return state.cancelled
        }
        if cancelled { finish(.failure(CancellationError())) }
    }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Loop thread: sends `message` on `connection` and arranges for the reply.
    func start(_ message: Message, on connection: OpaquePointer?, timeoutMilliseconds: Int32) {
        guard !isCancelled else { return }
        guard let connection else { return finish(.failure(BusError.disconnected)) }
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(connection, message.raw, &pending, timeoutMilliseconds) != 0 else {
            return finish(.failure(BusError.noMemory))
        }
        guard let pending else { return finish(.failure(BusError.disconnected)) }
        state.withLock { $0.pending = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pending))) }
        let context = Unmanaged.passRetained(self).toOpaque()
        dbus_pending_call_set_notify(pending, { _, data in
            Unmanaged<PendingReply>.fromOpaque(data!).takeUnretainedValue().complete()
        }, context, { data in
            Unmanaged<PendingReply>.fromOpaque(data!).release()
        })
        // The reply cannot have come yet (only this thread dispatches), but be sure.
        if dbus_pending_call_get_completed(pending) != 0 { complete() }
    }

    /// Loop thread: the reply (or libdbus's timeout error) is there.
    private func complete() {
        guard let pending = takePending() else { return }
        let answer = Self.answer(of: pending)
        dbus_pending_call_unref(pending)
        finish(answer)
    }

    /// A completed libdbus pending call's answer: the reply, or the error it carries (libdbus
    /// makes up `NoReply` on a timeout), or `disconnected` when there is none.
    static func answer(of pending: OpaquePointer) -> Result<Message, any Error> {
        guard let reply = dbus_pending_call_steal_reply(pending) else { return .failure(BusError.disconnected) }
        let message = Message(taking: reply)
        if let error = message.error { return .failure(error) }
        return .success(message)
    }

    /// Loop thread: the connection is gone. libdbus has dropped the call from its table
    /// (its made-up `NoReply` goes to the filters, not to us), so answer it here.
    func abandon() {
        if let pending = takePending() {
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
        }
        finish(.failure(BusError.disconnected))
    }

    /// Loop thread: the caller's task was cancelled.
    func cancel() {
        state.withLock { $0.cancelled = true }
        if let pending = takePending() {
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
        }
        finish(.failure(CancellationError()))
    }

    private func takePending() -> OpaquePointer? {
        let bits = state.withLock { state -> UInt? in
            defer { state.pending = nil }
            return state.pending
        }
        return bits.flatMap { OpaquePointer(bitPattern: $0) }
    }

    private func finish(_ result: Result<Message, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Message, any Error>? in
            defer { state.continuation = nil }
            return state.continuation
        }
        guard let continuation else { return }
        continuation.resume(with: result)
        onFinish(self)
    }
}
