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
/// Only this thread calls libcurl for a running transfer; other threads hand it work through
/// a locked queue and wake it (`curl_multi_wakeup`). It waits in `curl_multi_poll`, never on
/// the cooperative pool, and keeps each transfer's waits itself: a transfer that receives
/// nothing for its idle timeout, or outlasts its total, ends as timed out.
// @unchecked Sendable: `running` is touched only on the loop thread; the queue is behind a
// Mutex; `multi` is a constant, and `curl_multi_wakeup` may be called from any thread.
final class CurlLoop: @unchecked Sendable {
    static let shared = CurlLoop()

    private enum Command {
        case add(CurlTransfer)
        case cancel(CurlTransfer)
    }

    private let multi: UnsafeMutableRawPointer?
    private let commands = Locked<[Command]>([])
    /// Why no transfer can run: libcurl could not be loaded or started, or the thread did not
    /// start (set in `init` only). Every transfer then fails with these words.
    private(set) var failure: String?
    /// The transfers in the multi handle, by easy handle (loop thread only).
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    private init() {
        var words = [CChar](repeating: 0, count: 512)
        guard ccurl_load(&words, words.count) == 0 else {
            multi = nil
            failure = String(decoding: words.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return
        }
        multi = ccurl_multi_init()
        guard multi != nil else {
            failure = "libcurl did not start (curl_multi_init failed)"
            return
        }
        var thread = pthread_t()
        // `shared` lives for the process: the thread holds it unretained.
        let started = pthread_create(&thread, nil, { raw in
            Unmanaged<CurlLoop>.fromOpaque(raw!).takeUnretainedValue().loop()
            return nil
        }, Unmanaged.passUnretained(self).toOpaque())
        if started == 0 {
            pthread_detach(thread)
        } else {
            failure = "the HTTP thread did not start (pthread_create: \(started))"
        }
    }

    /// Starts `transfer` on the loop thread (the caller checked `failure`).
    func add(_ transfer: CurlTransfer) {
        guard failure == nil else { return transfer.finish(CURLE_FAILED_INIT) }
        send(.add(transfer))
    }

    /// Ends `transfer` as cancelled: at once when it runs, when it is added if it has not
    /// been yet, not at all when it has ended.
    func cancel(_ transfer: CurlTransfer) {
        guard failure == nil else { return }
        send(.cancel(transfer))
    }

    private func send(_ command: Command) {
        commands.withLock { $0.append(command) }
        ccurl_multi_wakeup(multi)
    }

    // MARK: The loop thread

    private func loop() {
        ccurl_block_sigpipe()
        while true {
            let now = commands.withLock { commands in
                defer { commands = [] }
                return commands
            }
            for command in now {
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
                let code = message.pointee.data.result
                end(easy, code)
            }
            let clock = RealTime.now
            for (easy, transfer) in running where transfer.hasTimedOut(at: clock) {
                end(easy, CURLE_OPERATION_TIMEDOUT)
            }
            // libcurl's own next deadline, and a look at the idle waits four times a second.
            var wait = -1
            ccurl_multi_timeout(multi, &wait)
            let most = running.isEmpty ? 3_600_000 : 250
            ccurl_multi_poll(multi, Int32(wait < 0 ? most : min(wait, most)))
        }
    }

    /// Takes `easy` out of the multi handle and ends its transfer with `code`.
    private func end(_ easy: UnsafeMutableRawPointer, _ code: CURLcode) {
        guard let transfer = running.removeValue(forKey: easy) else { return }
        ccurl_multi_remove_handle(multi, easy)
        transfer.finish(code)
    }
}
