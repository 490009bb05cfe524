import Locking
public import Logging

/// Runs services as one: each is made ready (`prepare`) and started in order, and they stop
/// in reverse order, each once the one started after it has ended — on `shutdown()`, or
/// when one of them ends or throws by itself (the others then stop and `run()` rethrows its
/// error). Cancelling `run()`'s task stops them all at once instead.
///
/// Stopping has a deadline (`stopDeadline`): for its first half the services are stopped in
/// order, then every one not yet asked is asked at once, and when it has passed `run()`
/// returns without those that did not stop, which it logs in one line and returns by name.
/// So a service stuck where cancellation cannot reach it (a call into C, a loop that never
/// looks) holds the daemon's exit back by the deadline, not for ever. Each service runs in a
/// task of its own (not a child task, which would have to be awaited) and is stopped by
/// cancelling that task.
///
/// Our own rather than swift-service-lifecycle's `ServiceGroup` (decisions.md): the daemon
/// needs a ready point between services (the bus name is taken only once everything before
/// it is in place) and its own endings (a signal, the bus lost); the rest is this page.
public final class ServiceGroup: Sendable {
    /// How long the services of the daemon get to stop, in all, once asked (docs/daemon.md
    /// says why three seconds).
    public static let stopDeadline: Duration = .seconds(3)

    private let services: [any Service]
    private let deadline: Duration?
    private let logger: Logger
    private let events: (stream: AsyncStream<Event>, continuation: AsyncStream<Event>.Continuation)
    private let state = Locked(State())

    private struct State {
        /// `nil` until every service is ready or one failed to get ready.
        var outcome: Result<Void, any Error>?
        var waiters: [CheckedContinuation<Void, any Error>] = []
        /// The services started (preparing or running) that have not ended, by index.
        var running: Set<Int> = []
    }

    enum Event: Sendable {
        /// A service is ready, or could not get ready.
        case prepared(Int, (any Error)?)
        /// A service's `run()` returned or threw.
        case ended(Int, (any Error)?)
        case shutdown
        /// `run()`'s task was cancelled: everything stops at once.
        case cancelled
        /// Half the deadline passed: every service not yet asked is asked at once.
        case halfTime
        /// The deadline passed.
        case timeUp
    }

    /// A group of `services`, started in this order and stopped in the reverse within
    /// `stopDeadline` (`nil`: however long they take); `logger` says which did not stop.
    public init(_ services: [any Service], stopDeadline: Duration? = ServiceGroup.stopDeadline, logger: Logger) {
        self.services = services
        deadline = stopDeadline
        self.logger = logger
        events = AsyncStream<Event>.makeStream()
    }

    /// Runs the services until `shutdown()`, cancellation or the end of one of them; returns
    /// once every one has ended, or the stop deadline has passed: then with the names of
    /// those that had not ended (still running in their tasks, cancelled). Throws the first
    /// error a service threw (a failure to get ready included: the services started before
    /// it are stopped, in reverse). Call it once.
    @discardableResult
    public func run() async throws -> [String] {
        let events = self.events
        return try await withTaskCancellationHandler {
            var run = Supervision(count: services.count)
            if services.isEmpty { ready(.success(())) } else { start(0, &run) }
            for await event in events.stream {
                handle(event, &run)
                if run.stopping { stopInTurn(&run) }
                if run.stopping, run.timedOut || run.started.allSatisfy({ run.ended.contains($0) }) { break }
            }
            run.timer?.cancel()
            events.continuation.finish()
            let left = run.started.filter { !run.ended.contains($0) }.map { services[$0].name }
            if !left.isEmpty, let deadline {
                logger.warning("services did not stop within the deadline; going on without them",
                               metadata: ["services": "\(left.joined(separator: ","))", "deadline": "\(deadline)"])
            }
            if let failure = run.failure { throw failure }
            return left
        } onCancel: {
            events.continuation.yield(.cancelled)
        }
    }

    /// Waits until every service is ready (`prepare` done, in order); throws the error of
    /// the one that could not get ready (`CancellationError` when the group was stopped first).
    public func started() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = state.withLock { state -> Result<Void, any Error>? in
                if state.outcome == nil { state.waiters.append(continuation) }
                return state.outcome
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    /// Stops the services in reverse order (and, when called before they are all started,
    /// stops the one getting ready and starts no other); `run()` returns once all have
    /// ended, or the deadline has passed.
    public func shutdown() {
        events.continuation.yield(.shutdown)
    }

    /// The names of the services started and not ended yet, in the order they started: what
    /// a watchdog names when even `run()`'s own task cannot get a thread.
    public var running: [String] {
        state.withLock { $0.running }.sorted().map { services[$0].name }
    }

    private func ready(_ outcome: Result<Void, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }
}

extension ServiceGroup {
    /// What `run()` knows of its services as it goes.
    struct Supervision {
        /// Each started service's task (preparing, then running), by index.
        var tasks: [Task<Void, Never>?]
        var started: [Int] = []
        var ended: Set<Int> = []
        var failure: (any Error)?
        var stopping = false
        /// The next service to stop, counting down; `stopping` only.
        var turn = -1
        var asked: Set<Int> = []
        var allAtOnce = false
        var timedOut = false
        var timer: Task<Void, Never>?

        init(count: Int) {
            tasks = Array(repeating: nil, count: count)
        }
    }

    /// Starts service `index` in a task of its own: `prepare`, then `run`, each told as an event.
    private func start(_ index: Int, _ run: inout Supervision) {
        let service = services[index]
        let events = self.events.continuation
        state.withLock { _ = $0.running.insert(index) }
        run.started.append(index)
        run.tasks[index] = Task { [self] in
            defer { state.withLock { _ = $0.running.remove(index) } }
            do {
                try Task.checkCancellation()
                try await service.prepare()
                // Stopped while it got ready: it does not run.
                try Task.checkCancellation()
            } catch {
                events.yield(.prepared(index, error))
                return
            }
            events.yield(.prepared(index, nil))
            do {
                try await service.run()
                events.yield(.ended(index, nil))
            } catch {
                events.yield(.ended(index, error))
            }
        }
    }

    private func handle(_ event: Event, _ run: inout Supervision) {
        switch event {
        case .prepared(let index, nil):
            guard !run.stopping else { return }
            if index + 1 < services.count { start(index + 1, &run) } else { ready(.success(())) }
        case .prepared(let index, let error?):
            run.ended.insert(index)
            note(error, &run)
            ready(.failure(error))
            beginStopping(&run)
        case .ended(let index, let error):
            run.ended.insert(index)
            if let error { note(error, &run) }
            beginStopping(&run)
        case .shutdown:
            beginStopping(&run)
        case .cancelled:
            beginStopping(&run)
            run.allAtOnce = true
        case .halfTime:
            run.allAtOnce = true
        case .timeUp:
            run.timedOut = true
        }
    }

    private func note(_ error: any Error, _ run: inout Supervision) {
        if run.failure == nil, !(error is CancellationError) { run.failure = error }
    }

    /// From the first ending on: stops the services in reverse, and starts the deadline's clock.
    private func beginStopping(_ run: inout Supervision) {
        guard !run.stopping else { return }
        run.stopping = true
        run.turn = (run.started.last ?? -1)
        ready(.failure(CancellationError()))
        guard let deadline else { return }
        let events = self.events.continuation
        run.timer = Task {
            guard (try? await RealTime.sleep(for: deadline / 2)) != nil else { return }
            events.yield(.halfTime)
            guard (try? await RealTime.sleep(for: deadline / 2)) != nil else { return }
            events.yield(.timeUp)
        }
    }

    /// Asks the services to stop, last started first, each once the one after it has ended
    /// (all that are left at once after half the deadline, or on cancellation).
    private func stopInTurn(_ run: inout Supervision) {
        while run.turn >= 0 {
            let index = run.turn
            if !run.asked.contains(index) {
                run.asked.insert(index)
                run.tasks[index]?.cancel()
            }
            guard run.ended.contains(index) || run.allAtOnce else { return }
            run.turn -= 1
        }
    }
}
