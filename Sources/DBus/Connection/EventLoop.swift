internal import CDBus
import Locking
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one thread that owns a connection's I/O.
///
/// Only this thread ever calls into libdbus for the connection: it polls the connection's
/// watches (honouring libdbus's toggling), fires its timeouts, dispatches incoming messages
/// and performs the work other threads hand it through `execute(_:)`. So a watch or timeout
/// can never be removed by one thread while another handles it, and nothing but `poll`
/// ever waits here: handlers that run on this thread must not block.
// @unchecked Sendable: the loop's own state (`connection`, the poll arrays, the call queue, the
// stop flags and the handlers) is touched only on the loop thread — or, once the loop has
// ended, by work that finds `connection` nil and changes nothing (the work queue's lock orders
// it after the loop's last access). Debug builds check it (`assertConfined`). The watch/timeout
// table and the work queue, which other threads reach, are behind locks; `wakeFD` is a constant.
//
// One exception to "only the loop thread calls libdbus": releasing the last reference to a
// received message on another thread lets libdbus re-enable reading (its limit on messages
// alive), which toggles a watch from that thread. The table is locked for that, the loop is
// woken, and libdbus never removes a watch or timeout from such a call.
final class EventLoop: @unchecked Sendable {
    private struct Watch {
        let raw: OpaquePointer
        var enabled: Bool
    }

    private struct Timeout {
        let raw: OpaquePointer
        var deadline: Int64
    }

    private let wakeFD: Int32
    private struct Queue {
        var work: [@Sendable () -> Void] = []
        var finished = false
    }

    private let queue = Locked(Queue())
    /// The loop thread's `pthread_t` while it runs, 0 otherwise.
    private let threadID = Atomic<UInt>(0)

    /// libdbus's handles, only ever read and changed under `table`'s lock.
    private struct Table {
        var watches: [Watch] = []
        var timeouts: [Timeout] = []
        /// The watches changed since the poll descriptors were built.
        var stale = true
    }

    /// libdbus's watches and timeouts, as its callbacks report them.
    private let table = Locked(Table())

    // Loop-thread state.
    private var loopConnection: OpaquePointer?
    /// The connection served; on the loop thread (elsewhere only once the loop ended: then `nil`).
    var connection: OpaquePointer? {
        assertConfined()
        return loopConnection
    }
    private var pollDescriptors: [pollfd] = []
    private var pollWatches: [OpaquePointer] = []
    private var stopRequested = false
    private var stopped: [@Sendable () -> Void] = []
    /// Called on the loop thread after the connection is gone, just before the thread ends.
    var onFinish: (@Sendable () -> Void)?
    /// Method calls read but not handled yet, served one sender after another (loop thread only).
    private var calls = CallQueue<Message>()
    /// Handles one method call (set by the connection before the loop starts; loop thread).
    var handleCall: ((Message) -> Void)?
    /// While calls wait, the socket is read again at least this often (nanoseconds), so that
    /// a call that came in behind a long backlog gets its turn (and a `Ping` its answer) soon.
    static let readInterval: Int64 = 500_000
    /// While more than this many bytes wait for the bus to read them (in libdbus's queue and
    /// the socket's), no further call is handled: an answer (a `Ping`'s too) waits behind what
    /// is queued before it, so one client's answers must not pile up ahead of everyone else's.
    /// (At 1 MiB of libdbus's queue alone, a flood of 10,000 `GetAll` still kept another
    /// client's `Ping` waiting up to 0.45 s while a busy dbus-daemon read the backlog.)
    static let outgoingLimit = 64 * 1024

    init() {
        wakeFD = cdbus_make_wakeup_fd()
    }

    deinit { close(wakeFD) }

    /// Whether the caller runs on this loop's thread.
    var isCurrent: Bool { threadID.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Debug builds: traps when the loop's own state is reached off its thread while it runs
    /// (before it starts and after it ends, only work that changes nothing reaches it).
    @inline(__always) private func assertConfined() {
        #if DEBUG
        let thread = threadID.load(ordering: .relaxed)
        precondition(thread == 0 || thread == UInt(pthread_self()), "an EventLoop's own state was reached off its thread")
        #endif
    }

    // MARK: Starting and stopping

    /// Starts the thread; `setup` runs on it first and returns the connection to serve, or
    /// `nil` to end the thread at once.
    func start(setup: @escaping @Sendable () -> OpaquePointer?) throws {
        let context = Unmanaged.passRetained(StartContext(loop: self, setup: setup)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let context = Unmanaged<StartContext>.fromOpaque(raw!).takeRetainedValue()
            context.loop.run(context)
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<StartContext>.fromOpaque(context).release()
            throw BusError(code: .failed, name: .noMemory, message: "Cannot start a thread for the D-Bus connection (error \(result)).")
        }
        pthread_detach(thread)
    }

    /// What the new thread is handed: the loop, and its setup until that has run.
    private final class StartContext {
        let loop: EventLoop
        private var setup: (@Sendable () -> OpaquePointer?)?
        init(loop: EventLoop, setup: @escaping @Sendable () -> OpaquePointer?) {
            self.loop = loop
            self.setup = setup
        }

        /// Runs the setup and lets go of it (and of all it holds) before returning.
        func runSetup() -> OpaquePointer? {
            let setup = self.setup
            self.setup = nil
            return setup?()
        }
    }

    /// Runs `work` on the loop thread: at once when called there, otherwise soon after.
    /// Work handed to a loop that has stopped runs on the caller's thread with `connection`
    /// already `nil`, so every piece of work runs exactly once.
    func execute(_ work: @escaping @Sendable () -> Void) {
        if isCurrent {
            work()
            return
        }
        let state = queue.withLock { queue -> (finished: Bool, wake: Bool) in
            if queue.finished { return (true, false) }
            queue.work.append(work)
            return (false, queue.work.count == 1)
        }
        if state.finished { work() }
        if state.wake { signalWake() }
    }

    /// Asks the loop to close the connection and end; `done` runs when it has.
    func stop(_ done: @escaping @Sendable () -> Void) {
        execute { [self] in
            // With no connection the loop has finished already (work then runs on the caller's thread).
            guard connection != nil else { return done() }
            stopRequested = true
            stopped.append(done)
        }
    }

    // MARK: Method calls, in turn

    /// Loop thread: queues a method call just read; it is handled in its sender's turn.
    func enqueue(_ call: Message) {
        assertConfined()
        calls.append(call, from: call.senderKey)
    }

    /// Loop thread: a call from `sender` went on in a task; `ended(_:)` once it is over.
    func began(_ sender: String) {
        assertConfined()
        calls.began(sender)
    }

    /// Any thread: a call that went on in a task is over.
    func ended(_ sender: String) {
        execute { [self] in
            // The loop ended: no calls to serve (and this may run on any thread).
            guard connection != nil else { return }
            calls.ended(sender)
        }
    }

    /// Loop thread: `sender` left the bus; its waiting calls are forgotten.
    func dropCalls(from sender: String) {
        assertConfined()
        calls.dropCalls(from: sender)
    }

    /// Handles the waiting calls one sender after another until none may start, reading the
    /// socket again every `readInterval` meanwhile (which answers `Peer.Ping`s at once and
    /// queues the calls that came in). Returns whether calls wait for the bus to read what
    /// is queued for it (`outgoingLimit`).
    private func serveCalls(_ connection: OpaquePointer) -> Bool {
        var lastRead = Self.nanoseconds()
        while !stopRequested {
            guard cdbus_unsent_bytes(connection) <= Self.outgoingLimit else { return !calls.isEmpty }
            guard let (sender, call) = calls.next() else { return false }
            handleCall?(call)
            calls.served(sender)
            let now = Self.nanoseconds()
            if now - lastRead >= Self.readInterval {
                readWhatCame(connection)
                lastRead = Self.nanoseconds()
            }
        }
        return false
    }

    /// Reads what the socket holds now, without waiting, and dispatches it (a bounded number
    /// of reads: libdbus reads a few KiB each).
    private func readWhatCame(_ connection: OpaquePointer) {
        for _ in 0..<64 {
            guard waitAndHandle(waiting: false) else { break }
            dispatchAll(connection)
        }
        runQueuedWork()
        dispatchAll(connection)
    }

    private func signalWake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    // MARK: The loop

    private func run(_ start: StartContext) {
        threadID.store(UInt(pthread_self()), ordering: .relaxed)
        // The setup is let go of at once: this thread is still returning after `stop`'s `done`
        // has run, and by then it must hold nothing of the connection's owner (its setup
        // captured it), or the owner outlives its last user.
        guard let connection = start.runSetup() else {
            finish()
            return
        }
        loopConnection = connection
        install(on: connection)

        while true {
            runQueuedWork()
            if stopRequested {
                dbus_connection_close(connection)
            }
            dispatchAll(connection)
            // Bytes in the socket's buffer wake nobody as the bus reads them: look again soon.
            let waitingForTheBus = serveCalls(connection)
            if dbus_connection_get_is_connected(connection) == 0 { break }
            // Work run between dispatched messages or served calls may have asked the loop to stop: act on
            // it now, for nothing may come to wake the wait below.
            if stopRequested { continue }
            waitAndHandle(waiting: true, atMostMilliseconds: waitingForTheBus ? 1 : nil)
        }

        // Deliver what is left (the Disconnected signal among it) and finish what it started, then let go.
        dispatchAll(connection)
        calls.removeAll()
        handleCall = nil
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_wakeup_main_function(connection, nil, nil, nil)
        table.withLock { $0 = Table() }
        loopConnection = nil
        onFinish?()
        dbus_connection_unref(connection)
        finish()
    }

    private func finish() {
        threadID.store(0, ordering: .relaxed)
        onFinish = nil
        runLeftWork()
        // Last: whoever waits for the end may go on (and the process exit) as soon as it is told.
        for done in stopped { done() }
        stopped.removeAll()
    }

    /// Work that arrives from now on runs on its caller's thread (see `execute`); what is
    /// queued already runs here, with the connection gone, so each piece fails cleanly, and
    /// is let go of (with all it holds) on returning.
    private func runLeftWork() {
        let left = queue.withLock { queue -> [@Sendable () -> Void] in
            queue.finished = true
            defer { queue.work.removeAll() }
            return queue.work
        }
        for item in left { item() }
    }

    private func runQueuedWork() {
        let work = queue.withLock { queue -> [@Sendable () -> Void] in
            defer { queue.work.removeAll(keepingCapacity: true) }
            return queue.work
        }
        for item in work { item() }
    }

    private func dispatchAll(_ connection: OpaquePointer) {
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {
            // Work queued by other threads keeps flowing while a burst is dispatched.
            if queue.withLock({ !$0.work.isEmpty }) { runQueuedWork() }
        }
    }

    private func rebuildPollDescriptors() {
        pollDescriptors.removeAll(keepingCapacity: true)
        pollWatches.removeAll(keepingCapacity: true)
        pollDescriptors.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
        let watches = table.withLock { table in
            table.stale = false
            return table.watches
        }
        for watch in watches where watch.enabled {
            let flags = dbus_watch_get_flags(watch.raw)
            var events: Int16 = 0
            if flags & UInt32(DBUS_WATCH_READABLE.rawValue) != 0 { events |= Int16(POLLIN) }
            if flags & UInt32(DBUS_WATCH_WRITABLE.rawValue) != 0 { events |= Int16(POLLOUT) }
            pollDescriptors.append(pollfd(fd: dbus_watch_get_unix_fd(watch.raw), events: events, revents: 0))
            pollWatches.append(watch.raw)
        }
    }

    /// Polls the watches (until one is ready or the next timeout is due when `waiting`, else
    /// not at all), handles those ready and the timeouts due; whether any watch was ready.
    @discardableResult
    private func waitAndHandle(waiting: Bool, atMostMilliseconds limit: Int32? = nil) -> Bool {
        if table.withLock({ $0.stale }) { rebuildPollDescriptors() }
        var waitMilliseconds: Int32 = waiting ? -1 : 0
        if waiting, let next = table.withLock({ $0.timeouts.lazy.map(\.deadline).min() }) {
            waitMilliseconds = Int32(clamping: max(0, next - Self.now()))
        }
        if let limit, waitMilliseconds < 0 || waitMilliseconds > limit { waitMilliseconds = limit }
        let ready = poll(&pollDescriptors, nfds_t(pollDescriptors.count), waitMilliseconds)
        if ready > 0 {
            if pollDescriptors[0].revents != 0 {
                var count: UInt64 = 0
                _ = read(wakeFD, &count, 8)
            }
            // Handling one watch may remove or add others: look each one up again first.
            let fired = zip(pollWatches, pollDescriptors.dropFirst()).filter { $0.1.revents != 0 }
            // (Compared by address: the handle itself stays on this thread.)
            for (raw, descriptor) in fired where table.withLock({ [address = UInt(bitPattern: raw)] in
                $0.watches.contains { UInt(bitPattern: $0.raw) == address && $0.enabled }
            }) {
                var flags: UInt32 = 0
                if descriptor.revents & Int16(POLLIN) != 0 { flags |= UInt32(DBUS_WATCH_READABLE.rawValue) }
                if descriptor.revents & Int16(POLLOUT) != 0 { flags |= UInt32(DBUS_WATCH_WRITABLE.rawValue) }
                if descriptor.revents & Int16(POLLERR) != 0 { flags |= UInt32(DBUS_WATCH_ERROR.rawValue) }
                if descriptor.revents & Int16(POLLHUP) != 0 { flags |= UInt32(DBUS_WATCH_HANGUP.rawValue) }
                _ = dbus_watch_handle(raw, flags)
            }
        }
        let now = Self.now()
        let due = table.withLock { table in
            var due: [OpaquePointer] = []
            for index in table.timeouts.indices where table.timeouts[index].deadline <= now {
                due.append(table.timeouts[index].raw)
                table.timeouts[index].deadline = now + Int64(dbus_timeout_get_interval(table.timeouts[index].raw))
            }
            return due
        }
        // Handling one timeout may remove others (only ever on this thread): look each one up again.
        for raw in due where table.withLock({ [address = UInt(bitPattern: raw)] in $0.timeouts.contains { UInt(bitPattern: $0.raw) == address } }) {
            _ = dbus_timeout_handle(raw)
        }
        // The wake-up descriptor alone is not the socket.
        return ready > 0 && pollDescriptors.dropFirst().contains { $0.revents & Int16(POLLIN) != 0 }
    }

    static func now() -> Int64 {
        nanoseconds() / 1_000_000
    }

    static func nanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    // MARK: libdbus callbacks (always on the loop thread)

    private func install(on connection: OpaquePointer) {
        let this = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(connection, { watch, data in
            EventLoop.from(data).addWatch(watch!)
        }, { watch, data in
            EventLoop.from(data).removeWatch(watch!)
        }, { watch, data in
            EventLoop.from(data).toggleWatch(watch!)
        }, this, nil)
        dbus_connection_set_timeout_functions(connection, { timeout, data in
            EventLoop.from(data).addTimeout(timeout!)
        }, { timeout, data in
            EventLoop.from(data).removeTimeout(timeout!)
        }, { timeout, data in
            EventLoop.from(data).toggleTimeout(timeout!)
        }, this, nil)
        dbus_connection_set_wakeup_main_function(connection, { data in
            // On the loop thread the loop is awake already: it dispatches and polls again
            // (with any watch libdbus enabled meanwhile) before it sleeps. Writing the eventfd
            // there cost a system call and an extra turn of the loop per message sent.
            let loop = EventLoop.from(data)
            if !loop.isCurrent { loop.signalWake() }
        }, this, nil)
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> EventLoop {
        Unmanaged<EventLoop>.fromOpaque(data!).takeUnretainedValue()
    }

    private func addWatch(_ raw: OpaquePointer) -> dbus_bool_t {
        changeTable { table in
            table.watches.append(Watch(raw: raw, enabled: dbus_watch_get_enabled(raw) != 0))
            table.stale = true
        }
        return 1
    }

    private func removeWatch(_ raw: OpaquePointer) {
        changeTable { table in
            table.watches.removeAll { $0.raw == raw }
            table.stale = true
        }
    }

    private func toggleWatch(_ raw: OpaquePointer) {
        changeTable { table in
            if let index = table.watches.firstIndex(where: { $0.raw == raw }) {
                table.watches[index].enabled = dbus_watch_get_enabled(raw) != 0
            }
            table.stale = true
        }
    }

    private func addTimeout(_ raw: OpaquePointer) -> dbus_bool_t {
        changeTable { table in
            table.timeouts.removeAll { $0.raw == raw }
            if dbus_timeout_get_enabled(raw) != 0 {
                table.timeouts.append(Timeout(raw: raw, deadline: Self.now() + Int64(dbus_timeout_get_interval(raw))))
            }
        }
        return 1
    }

    private func removeTimeout(_ raw: OpaquePointer) {
        changeTable { table in table.timeouts.removeAll { $0.raw == raw } }
    }

    private func toggleTimeout(_ raw: OpaquePointer) {
        _ = addTimeout(raw)
    }

    /// Changes the table; a change made on another thread wakes the loop to see it.
    private func changeTable(_ change: (inout Table) -> Void) {
        table.withLock { change(&$0) }
        if !isCurrent { signalWake() }
    }
}
