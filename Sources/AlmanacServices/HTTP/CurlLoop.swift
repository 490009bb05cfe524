internal import CCurl
import AlmanacCore
import Glibc
import Locking
import Synchronization

/// The one thread that runs every HTTP transfer of the process, over one libcurl multi
/// handle (so connections are kept and reused across requests). Made on the first request,
/// which loads libcurl (`ccurl_load`): a daemon with nothing to fetch never maps it
/// (docs/performance.md, "Memory").
///
/// Only the loop thread calls libcurl for a running transfer, and only it has the multi
/// handle (`LoopThread`): other threads hand it work through its `Inbox`, a locked queue and
/// an eventfd it polls beside its transfers' sockets. It waits in `curl_multi_poll`, never on
/// the cooperative pool, and keeps each transfer's waits itself: a transfer that receives
/// nothing for its idle timeout, or outlasts its total, ends as timed out.
final class CurlLoop: Sendable {
    static let shared = CurlLoop()

    fileprivate enum Command: Sendable {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
    }

    /// Where other threads leave commands for the loop thread; `nil` when it did not start.
    private let inbox: Inbox?
    /// Why no transfer can run: libcurl could not be loaded or started, or the thread did not
    /// start. Every transfer then fails with these words.
    let failure: String?

    private init() {
        (inbox, failure) = Self.start()
    }

    /// Starts `transfer` on the loop thread (the caller checked `failure`).
    func add(_ transfer: CurlTransfer) {
        guard let inbox else { return transfer.finish(CURLE_FAILED_INIT) }
        inbox.send(.add(transfer))
    }

    /// Ends `transfer` as cancelled: at once when it runs, when it is added if it has not
    /// been yet, not at all when it has ended.
    func cancel(_ transfer: CurlTransfer) {
        inbox?.send(.cancel(transfer))
    }

    /// Loads libcurl, makes the multi handle and the inbox, and starts the loop thread, which
    /// is given the handle alone.
    private static func start() -> (Inbox?, String?) {
        var words = [CChar](repeating: 0, count: 512)
        guard ccurl_load(&words, words.count) == 0 else {
            return (nil, String(decoding: words.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard let multi = ccurl_multi_init() else { return (nil, "libcurl did not start (curl_multi_init failed)") }
        let wakeUp = ccurl_wake_fd()
        guard wakeUp >= 0 else { return (nil, "the HTTP thread has no way to be woken (eventfd: \(errno))") }
        let inbox = Inbox(wakeUp: wakeUp)
        var thread = pthread_t()
        // The thread owns its `LoopThread` (released when the function returns, which it never does).
        let context = Unmanaged.passRetained(LoopThread(multi: multi, inbox: inbox)).toOpaque()
        let started = pthread_create(&thread, nil, { raw in
            Unmanaged<LoopThread>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<LoopThread>.fromOpaque(context).release()
            return (nil, "the HTTP thread did not start (pthread_create: \(started))")
        }
        pthread_detach(thread)
        return (inbox, nil)
    }

    /// Commands for the loop thread, and the eventfd that wakes it when one is left.
    fileprivate final class Inbox: Sendable {
        private let commands = Locked<[Command]>([])
        /// Written once per command; the loop thread polls it and empties it before taking them.
        let wakeUp: Int32

        init(wakeUp: Int32) {
            self.wakeUp = wakeUp
        }

        func send(_ command: Command) {
            commands.withLock { $0.append(command) }
            var one: UInt64 = 1
            _ = write(wakeUp, &one, 8)
        }

        /// Every command left so far, oldest first (the wake-ups read first, so none is lost).
        func take() -> [Command] {
            var count: UInt64 = 0
            _ = read(wakeUp, &count, 8)
            return commands.withLock { commands in
                defer { commands = [] }
                return commands
            }
        }
    }

    /// The loop thread's own: the multi handle and the transfers in it. Never shared.
    private final class LoopThread {
        private let multi: UnsafeMutableRawPointer
        private let inbox: Inbox
        /// The transfers in the multi handle, by easy handle.
        private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]

        init(multi: UnsafeMutableRawPointer, inbox: Inbox) {
            self.multi = multi
            self.inbox = inbox
        }

        func run() {
            ccurl_block_sigpipe()
            while true {
                for command in inbox.take() {
                    switch command {
                    case .add(let transfer):
                        if transfer.cancelRequested {
                            transfer.finish(CURLE_OK)
                        } else {
                            let easy = transfer.begin()
                            running[easy] = transfer
                            ccurl_multi_add_handle(multi, easy)
                        }
                    case .cancel(let transfer):
                        transfer.cancelRequested = true
                        if let easy = running.first(where: { $0.value === transfer })?.key { end(easy, CURLE_OK) }
                    }
                }
                var active: Int32 = 0
                ccurl_multi_perform(multi, &active)
                var left: Int32 = 0
                while let message = ccurl_multi_info_read(multi, &left) {
                    guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                    end(easy, message.pointee.data.result)
                }
                let clock = RealTime.now
                for (easy, transfer) in running where transfer.hasTimedOut(at: clock) {
                    end(easy, CURLE_OPERATION_TIMEDOUT)
                }
                // libcurl's own next deadline, and a look at the idle waits four times a second.
                var wait = -1
                ccurl_multi_timeout(multi, &wait)
                let most = running.isEmpty ? 3_600_000 : 250
                ccurl_multi_poll_waking(multi, inbox.wakeUp, Int32(wait < 0 ? most : min(wait, most)))
            }
        }

        /// Takes `easy` out of the multi handle and ends its transfer with `code`.
        private func end(_ easy: UnsafeMutableRawPointer, _ code: CURLcode) {
            guard let transfer = running.removeValue(forKey: easy) else { return }
            ccurl_multi_remove_handle(multi, easy)
            transfer.finish(code)
        }
    }
}
