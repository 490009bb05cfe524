import Dispatch
import Locking

/// The one owner of a document's writes: commands wait in its mailbox, and a serial queue of
/// its own takes everything waiting as one burst, which its `burst` body writes in one
/// transaction, then applies and publishes, returning each command's result; each caller is
/// answered after that. Commands that arrive while a burst is written form the next one
/// (group commit, with no help from whoever sends them).
///
/// Its own queue rather than an actor: a burst waits for the disk (`fsync`), which must not
/// hold up a thread of Swift's cooperative pool, and callers outside `async` code (the
/// documents' synchronous API, tests) wait for their answer (`perform`). Work other than
/// commands (`run`) takes the same queue in turn, so a read made there sees every burst
/// before it. A caller already on the queue (a view's handler hearing a change) is served
/// at once, as a burst of its own.
public final class DocumentOwner<Command: Sendable, Output: Sendable>: Sendable {
    /// Receives a command's result: its output, or why it was refused (then it changed nothing).
    public typealias Answer = @Sendable (Result<Output, any Error>) -> Void
    /// Writes, applies and publishes a burst; one result per command, in the same order.
    public typealias Burst = @Sendable ([Command]) -> [Result<Output, any Error>]

    private enum Entry: Sendable {
        case command(Command, Answer)
        case work(@Sendable () -> Void)
    }

    /// Everything that passes between the owner and its callers: what waits to be taken, and
    /// the results waiting to be collected by callers that wait on their thread (`perform`).
    private struct Mailbox {
        var waiting: [Entry] = []
        /// Whether a drain is queued or under way.
        var draining = false
        /// `perform`'s results, by the caller's number, until it collects its own.
        var results: [UInt64: Result<Output, any Error>] = [:]
        var nextCaller: UInt64 = 0
    }

    private let mailbox = Locked(Mailbox())
    private let queue: DispatchQueue
    /// Marks the owner's queue (`isCurrent`).
    private let key = DispatchSpecificKey<UInt8>()
    private let burst: Burst

    /// - Parameters:
    ///   - label: names the owner's queue (for debuggers).
    ///   - burst: writes and applies a burst of commands.
    public init(label: String, burst: @escaping Burst) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
        self.burst = burst
    }

    /// How many commands and other work (`run`, `post`) wait in the mailbox for the owner to take them.
    public var waiting: Int {
        mailbox.withLock { $0.waiting.count }
    }

    /// Whether the caller runs on the owner's queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: key) != nil }

    /// Puts `command` in the mailbox; `answer` is called on the owner's queue once the burst
    /// that holds it is written and published.
    public func send(_ command: Command, answer: @escaping Answer) {
        deposit(.command(command, answer))
    }

    /// Sends `command` and waits for its result. On the owner's queue, it is a burst of its own at once.
    public func perform(_ command: Command) throws -> Output {
        if isCurrent {
            let results = burst([command])
            precondition(results.count == 1, "a document owner's burst must answer every command")
            return try results[0].get()
        }
        assert(!Self.onSharedPool, "DocumentOwner.perform would block a thread of Swift's shared pool: await submit or run")
        let caller = mailbox.withLock { mailbox in
            defer { mailbox.nextCaller += 1 }
            return mailbox.nextCaller
        }
        let done = DispatchSemaphore(value: 0)
        send(command) { [self] result in
            mailbox.withLock { $0.results[caller] = result }
            done.signal()
        }
        done.wait()
        guard let result = mailbox.withLock({ $0.results.removeValue(forKey: caller) }) else { preconditionFailure("a command was not answered") }
        return try result.get()
    }

    /// Whether the caller is a task on Swift's shared (cooperative) pool: a task with no
    /// executor of its own to prefer. Waiting there holds one of a few threads (one per core)
    /// that every other task needs.
    static var onSharedPool: Bool {
        withUnsafeCurrentTask { task in task.map { $0.unownedTaskExecutor == nil } ?? false }
    }

    /// Sends `command` and waits for its result without holding a thread.
    public func submit(_ command: Command) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            send(command) { continuation.resume(with: $0) }
        }
    }

    /// Runs `work` on the owner's queue, in turn with the bursts, and returns what it returns:
    /// the way for a caller that must not wait on its own thread (a bus handler) to reach the
    /// document's synchronous API, whose writes then go straight into a burst of their own.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            deposit(.work { continuation.resume(with: Result { try work() }) })
        }
    }

    /// Runs `work` on the owner's queue, in turn with the bursts, without waiting for it.
    public func post(_ work: @escaping @Sendable () -> Void) {
        deposit(.work(work))
    }

    private func deposit(_ entry: Entry) {
        let start = mailbox.withLock { mailbox -> Bool in
            mailbox.waiting.append(entry)
            guard !mailbox.draining else { return false }
            mailbox.draining = true
            return true
        }
        if start { queue.async { [self] in drain() } }
    }

    /// Owner's queue: takes everything waiting, again and again, until the mailbox is empty;
    /// commands in a row are one burst.
    private func drain() {
        while true {
            let entries = mailbox.withLock { mailbox -> [Entry] in
                if mailbox.waiting.isEmpty { mailbox.draining = false }
                defer { mailbox.waiting.removeAll(keepingCapacity: true) }
                return mailbox.waiting
            }
            guard !entries.isEmpty else { return }
            var commands: [(Command, Answer)] = []
            for entry in entries {
                switch entry {
                case .command(let command, let answer):
                    commands.append((command, answer))
                case .work(let work):
                    flush(&commands)
                    work()
                }
            }
            flush(&commands)
        }
    }

    private func flush(_ commands: inout [(Command, Answer)]) {
        guard !commands.isEmpty else { return }
        let results = burst(commands.map(\.0))
        precondition(results.count == commands.count, "a document owner's burst must answer every command")
        for ((_, answer), result) in zip(commands, results) { answer(result) }
        commands.removeAll(keepingCapacity: true)
    }
}
