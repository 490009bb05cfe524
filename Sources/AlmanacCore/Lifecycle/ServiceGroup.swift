import Locking

/// Runs services as one: each is made ready (`prepare`) and started in order, and they stop
/// in reverse order, each once the one started after it has ended — on `shutdown()`, or
/// when one of them ends or throws by itself (the others then stop and `run()` rethrows its
/// error). Cancelling `run()`'s task stops them all at once instead.
///
/// Our own rather than swift-service-lifecycle's `ServiceGroup` (decisions.md): the daemon
/// needs a ready point between services (the bus name is taken only once everything before
/// it is in place) and its own endings (a signal, the bus lost); the rest is this page.
public final class ServiceGroup: Sendable {
    private let services: [any Service]
    /// One per service: ends its run (each in reverse order, once the later ones ended).
    private let stops: [StopSignal]
    private let shutdownSignal: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)
    private let readiness = Locked(Readiness())

    private struct Readiness {
        /// `nil` until every service is ready or one failed to get ready.
        var outcome: Result<Void, any Error>?
        var waiters: [CheckedContinuation<Void, any Error>] = []
    }

    /// How a service's task ended: its index, and its error if it threw.
    private struct Ended: Sendable {
        let index: Int
        let error: (any Error)?
    }

    /// A group of `services`, started in this order and stopped in the reverse.
    public init(_ services: [any Service]) {
        self.services = services
        stops = services.map { _ in StopSignal() }
        shutdownSignal = AsyncStream<Void>.makeStream()
    }

    /// Runs the services until `shutdown()`, cancellation or the end of one of them; returns
    /// once every one has ended. Throws the first error a service threw (a failure to get
    /// ready included: the services started before it are stopped, in reverse).
    public func run() async throws {
        var failure: (any Error)?
        await withTaskGroup(of: Ended.self) { group in
            var started = 0
            for (index, service) in services.enumerated() {
                do {
                    try Task.checkCancellation()
                    try await service.prepare()
                } catch {
                    failure = error
                    break
                }
                let stop = stops[index]
                group.addTask { Ended(index: index, error: await Self.run(service, until: stop)) }
                started += 1
            }
            ready(failure.map { .failure($0) } ?? .success(()))
            // The first of: `shutdown()`, or a service ending by itself.
            let shutdown = shutdownSignal.stream
            group.addTask {
                for await _ in shutdown {}
                return Ended(index: -1, error: nil)
            }
            var ended = Set<Int>()
            func note(_ end: Ended) {
                guard end.index >= 0 else { return }
                ended.insert(end.index)
                if failure == nil, let error = end.error, !(error is CancellationError) { failure = error }
            }
            if failure == nil, let first = await group.next() { note(first) }
            shutdownSignal.continuation.finish()
            for index in (0..<started).reversed() where !ended.contains(index) {
                stops[index].stop()
                while !ended.contains(index), let end = await group.next() { note(end) }
            }
            for await end in group { note(end) }
        }
        if let failure { throw failure }
    }

    /// Runs `service` until `stop` (or the task is cancelled): then its task is cancelled and
    /// its end awaited. Its error, if it threw.
    private static func run(_ service: any Service, until stop: StopSignal) async -> (any Error)? {
        await stop.run {
            do {
                try await service.run()
                return nil
            } catch {
                return error
            }
        }
    }

    /// Waits until every service is ready (`prepare` done, in order); throws the error of
    /// the one that could not get ready.
    public func started() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome = readiness.withLock { readiness -> Result<Void, any Error>? in
                if readiness.outcome == nil { readiness.waiters.append(continuation) }
                return readiness.outcome
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    private func ready(_ outcome: Result<Void, any Error>) {
        let waiters = readiness.withLock { readiness in
            readiness.outcome = outcome
            defer { readiness.waiters = [] }
            return readiness.waiters
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }

    /// Stops the services in reverse order (and, when called before they are all started,
    /// as soon as they are); `run()` returns once all have ended.
    public func shutdown() {
        shutdownSignal.continuation.finish()
    }
}
