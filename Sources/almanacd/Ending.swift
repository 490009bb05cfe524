import AlmanacCore
import DBus
import Dispatch
import FoundationEssentials
import Glibc

/// How the daemon's run ends: a signal asked it to stop (exit 0), or the bus went away or
/// one of its services ended by itself (exit 1, so that the service manager restarts it).
enum Ending: Sendable {
    case signal(Int32)
    case disconnected
    /// The service group ended unasked (the error of the service that threw, if one did; one
    /// that could not get ready included).
    case servicesEnded((any Error)?)

    /// The endings to wait for: `signals` as they come, from now on, each arming `watchdog`
    /// as it comes (on the watchdog's own queue, which gets a thread even when Swift's pool
    /// has none to give). Not `SIG_IGN` first:
    /// Dispatch installs its own handler, but on its manager thread, a moment later — a
    /// signal ignored in between was lost for good (1 start in 30–70 under make bench's start
    /// figure hung until SIGKILL; caught with gdb: SIGTERM caught, nothing pending, nothing
    /// awaiting it). Until the handler is there the default action ends the process, and
    /// `awaitHandlers` holds the name back until it is.
    static func stream(of signals: [Int32], arming watchdog: ExitWatchdog) -> (stream: AsyncStream<Ending>, continuation: AsyncStream<Ending>.Continuation) {
        let (stream, continuation) = AsyncStream.makeStream(of: Ending.self)
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            let source = DispatchSource.makeSignalSource(signal: number, queue: watchdog.queue)
            source.setEventHandler {
                watchdog.arm()
                continuation.yield(.signal(number))
            }
            source.resume()
            sources.append(source)
        }
        nonisolated(unsafe) let kept = sources
        continuation.onTermination = { _ in kept.forEach { $0.cancel() } }
        return (stream, continuation)
    }

    /// Waits (two seconds at most) until a handler, not the default action, is installed for
    /// each of `signals`: Dispatch does it on another thread after `stream(of:)`.
    static func awaitHandlers(_ signals: [Int32]) async {
        let giveUp = RealTime.now + .seconds(2)
        for number in signals {
            while RealTime.now < giveUp {
                var action = sigaction()
                sigaction(number, nil, &action)
                if unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) > 1 { break }  // not SIG_DFL, SIG_IGN
                try? await RealTime.sleep(for: .milliseconds(1))
            }
        }
    }

    /// Waits for one of the `endings` signals or for the connection to drop, whichever comes first.
    static func first(of endings: (stream: AsyncStream<Ending>, continuation: AsyncStream<Ending>.Continuation),
                      orDisconnectionOf connection: Connection) async -> Ending {
        // Unstructured on purpose: `waitUntilDisconnected` cannot be cancelled, so a child task
        // would keep this from returning until the connection closes, which after a signal
        // happens only once this has returned (the services stopped, the name released). It
        // ends when the connection closes; cancelling it only says it is no longer wanted.
        let watcher = Task {
            await connection.waitUntilDisconnected()
            endings.continuation.yield(.disconnected)
        }
        defer {
            watcher.cancel()
            endings.continuation.finish()
        }
        for await ending in endings.stream { return ending }
        return .disconnected
    }
}
