import Foundation

/// Runs a program nobody on the team wrote (busctl, gdbus, dbus-send, dbus-monitor) and
/// collects what it printed.
public struct Tool: Sendable {
    /// What a finished program printed and how it ended.
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
        public let errorOutput: String
    }

    /// Runs `program` with `arguments` and waits at most `timeout` seconds for it.
    public static func run(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Double = 60
    ) throws -> Result {
        let process = try ChildProcess(PrivateBus.find(program), arguments, environment: environment, captureErrors: true)
        let collected = process.collect(timeout: timeout)
        let status = process.wait()
        return Result(
            status: status,
            output: String(decoding: collected.output, as: UTF8.self),
            errorOutput: String(decoding: collected.errorOutput, as: UTF8.self)
                + (collected.timedOut ? "\n(killed after \(timeout) s)" : "")
        )
    }

    /// Starts a long-running program (such as `dbus-monitor`) whose output is collected until `stop()`.
    public final class Background: @unchecked Sendable {
        // @unchecked Sendable: `collected` is guarded by `lock`; `process` is only started and stopped.
        private let process: ChildProcess
        private let lock = NSLock()
        private var collected = Data()

        public init(_ program: String, _ arguments: [String], environment: [String: String]? = nil) throws {
            process = try ChildProcess(PrivateBus.find(program), arguments, environment: environment)
            process.output.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.lock.lock()
                self.collected.append(data)
                self.lock.unlock()
            }
        }

        /// The program's process id (to stop it with SIGSTOP, say).
        public var pid: Int32 { process.pid }

        /// What the program printed so far.
        public var output: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: collected, as: UTF8.self)
        }

        /// Waits up to `timeout` seconds (a budget for a loaded machine) for the output to contain `text`.
        public func waitFor(_ text: String, timeout: Double = 60) async -> Bool {
            await eventually(timeout: .milliseconds(Int(timeout * 1000))) { output.contains(text) }
        }

        public func stop() {
            process.output.readabilityHandler = nil
            process.send(SIGTERM)
            process.wait()
        }

        deinit { stop() }
    }
}

extension Tool {
    /// `run`, on a thread of its own, so that waiting for the program never blocks the
    /// cooperative thread pool the code under test may need.
    public static func runDetached(
        _ program: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Double = 60
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Swift.Result { try run(program, arguments, environment: environment, timeout: timeout) })
            }
            thread.start()
        }
    }
}
