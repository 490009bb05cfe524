public import Foundation

/// A child process started with `posix_spawn`, its standard output (and optionally error)
/// on pipes. Foundation's `Process.waitUntilExit` can hang in test processes on Linux, so
/// tests use this instead: `wait()` is a plain `waitpid`.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked Sendable: `status` is guarded by `lock`; the rest is immutable.
    public let pid: pid_t
    /// Read end of the child's standard output.
    public let output: FileHandle
    /// Read end of the child's standard error (`nil` when it went to /dev/null).
    public let errorOutput: FileHandle?
    private let lock = NSLock()
    private var status: Int32?
    /// Held from creating a child's pipes to closing the parent's copies of their write ends.
    private static let spawning = NSLock()

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), which Glibc shows Swift only
    /// under `_GNU_SOURCE`; found at run time, and skipped on an older C library.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Closes every descriptor above standard error in the child, after the `dup2`s before it.
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        _ = addCloseFrom?(&actions, 3)
    }

    /// Starts `executable` with `arguments`; `environment` replaces the current one when given.
    /// Standard error goes to a pipe (`captureErrors`), appended to the file `errorsTo` (for a
    /// long-lived child whose pipe nobody would drain), or to /dev/null.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
                captureErrors: Bool = false, errorsTo errorFile: String? = nil, input: FileHandle? = nil) throws {
        // Tests start children from many threads at once. A pipe end that leaked into another
        // test's long-lived child (a bus, a tmux server) would keep the pipe open after our
        // child ends, so reading it to the end would never finish. So pipes are made
        // close-on-exec (`posix_spawn`'s dup2 clears the flag on the copies the child is meant
        // to have), under one lock with the spawn, as Glibc gives Swift no `pipe2`.
        ChildProcess.spawning.lock()
        defer { ChildProcess.spawning.unlock() }
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0, !captureErrors || pipe(&errPipe) == 0 else {
            throw HarnessError(message: "cannot create a pipe: errno \(errno)")
        }
        for fd in outPipe + (captureErrors ? errPipe : []) { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input.fileDescriptor, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        if captureErrors {
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        } else if let errorFile {
            posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Nothing else of the test process reaches the child: Foundation opens files without
        // close-on-exec, and a file another test is writing, held open by a long-lived child,
        // keeps that test from remounting its folder read-only (EBUSY).
        ChildProcess.closeFrom3(&actions)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environmentList = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let envp = environmentList.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        // Threads of a test process (Dispatch's among them) block signals; a child inherits
        // that mask, so give it a clean one and default handlers, or SIGTERM would not stop it.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        close(outPipe[1])
        if captureErrors { close(errPipe[1]) }
        guard result == 0 else {
            close(outPipe[0])
            if captureErrors { close(errPipe[0]) }
            throw HarnessError(message: "cannot start \(executable.path): error \(result)")
        }
        self.pid = pid
        output = FileHandle(fileDescriptor: outPipe[0], closeOnDealloc: true)
        errorOutput = captureErrors ? FileHandle(fileDescriptor: errPipe[0], closeOnDealloc: true) : nil
    }

    /// Reads the child's standard output and error until both reach their end or `timeout`
    /// seconds pass; then the child is killed. Never blocks longer than `timeout`, whatever
    /// the child or anything that inherited its pipes does.
    public func collect(timeout: Double) -> (output: Data, errorOutput: Data, timedOut: Bool) {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var open = [output.fileDescriptor] + (errorOutput.map { [$0.fileDescriptor] } ?? [])
        var collected = [Int32: Data]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                send(SIGKILL)
                return (collected[output.fileDescriptor] ?? Data(), errorOutput.flatMap { collected[$0.fileDescriptor] } ?? Data(), true)
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 1000))
            guard poll(&fds, nfds_t(fds.count), milliseconds) >= 0 || errno == EINTR else { break }
            for entry in fds where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    collected[entry.fd, default: Data()].append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        return (collected[output.fileDescriptor] ?? Data(), errorOutput.flatMap { collected[$0.fileDescriptor] } ?? Data(), false)
    }

    /// The first line the child prints on standard output, waiting at most `timeout` seconds;
    /// `nil` when it ends or the time passes first.
    public func firstLine(timeout: Double) -> String? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var text = [UInt8]()
        var byte: UInt8 = 0
        while ContinuousClock.now < deadline {
            var entry = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) >= 0 || errno == EINTR else { return nil }
            guard entry.revents != 0 else { continue }
            let count = read(output.fileDescriptor, &byte, 1)
            if count == 0 || (count < 0 && errno != EINTR) { return nil }
            if count == 1 {
                if byte == UInt8(ascii: "\n") { return String(decoding: text, as: UTF8.self) }
                text.append(byte)
            }
        }
        return nil
    }

    /// Sends `signal` to the child if it still runs.
    public func send(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if status == nil { kill(pid, signal) }
    }

    /// Waits for the child to end and returns its exit status (128 + signal when killed).
    @discardableResult
    public func wait() -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let code = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        status = code
        return code
    }

    /// Whether the child has ended (without waiting).
    public var hasExited: Bool {
        lock.lock()
        defer { lock.unlock() }
        if status != nil { return true }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return false }
        status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        return true
    }

    deinit {
        if !hasExited {
            kill(pid, SIGKILL)
            wait()
        }
    }
}
