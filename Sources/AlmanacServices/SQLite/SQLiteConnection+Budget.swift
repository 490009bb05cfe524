import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A time budget for what a connection runs: SQLite's progress handler interrupts the
/// statement (`SQLiteError.Code.interrupted`) once the thread has spent that much processor
/// time. Processor time, not the clock's: a busy machine slows a search down but does not
/// make it fail.
extension SQLiteConnection {
    /// How many virtual-machine steps pass between looks at the thread's clock (each a
    /// system call of well under a microsecond; ten thousand steps take some 100 µs).
    static let stepsBetweenLooks: Int32 = 10_000

    /// Runs `body` with `seconds` of the calling thread's processor time to spend.
    func withBudget<T>(_ seconds: Double, _ body: () throws -> T) throws -> T {
        let handle = try open()
        let deadline = UnsafeMutablePointer<timespec>.allocate(capacity: 1)
        defer { deadline.deallocate() }
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        let nanoseconds = Int(now.tv_nsec) + Int((seconds - seconds.rounded(.down)) * 1e9)
        deadline.pointee = timespec(tv_sec: now.tv_sec + Int(seconds.rounded(.down)) + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        csqlite_set_deadline(handle, Self.stepsBetweenLooks, deadline)
        defer { csqlite_set_deadline(handle, 0, nil) }
        return try body()
    }
}
