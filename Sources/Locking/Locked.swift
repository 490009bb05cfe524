public import Synchronization

/// A value only reached under a lock: `Synchronization.Mutex`, told to ThreadSanitizer.
///
/// `Mutex` waits with raw `futex` calls, which ThreadSanitizer does not see, so it reports
/// every value a `Mutex` guards as raced. Built with `-DTSAN` (`make tsan`), each
/// `withLock` also tells ThreadSanitizer it acquires and releases the lock; otherwise this
/// is `Mutex` itself, inlined, at no cost.
public struct Locked<Value: ~Copyable>: ~Copyable {
    @usableFromInline let mutex: Mutex<Value>
    #if TSAN
    /// Its address stands for the lock in what ThreadSanitizer is told.
    @usableFromInline let token = LockToken()
    #endif

    @inlinable
    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with the value, the lock held.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if TSAN
        let address = Unmanaged.passUnretained(token).toOpaque()
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            tsanAcquire(address)
            defer { tsanRelease(address) }
            return try body(&value)
        }
        #else
        return try mutex.withLock(body)
        #endif
    }
}

extension Locked: @unchecked Sendable where Value: ~Copyable {}

#if TSAN
/// Stands for one lock in what ThreadSanitizer is told.
@usableFromInline final class LockToken: Sendable {
    @usableFromInline init() {}
}

@usableFromInline @_silgen_name("__tsan_acquire") func tsanAcquire(_ address: UnsafeMutableRawPointer)
@usableFromInline @_silgen_name("__tsan_release") func tsanRelease(_ address: UnsafeMutableRawPointer)
#endif
