#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A Unix file descriptor passed over D-Bus (type `h`). The value owns its descriptor and
/// closes it when the last reference goes away.
public final class UnixFD: Hashable, Sendable, CustomStringConvertible {
    /// The descriptor; valid while this object lives. Use `duplicate()` to keep it longer.
    public let fileDescriptor: Int32

    /// Takes ownership of `fileDescriptor`: it is closed when this value is released.
    public init(taking fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Duplicates `fileDescriptor`, leaving the original with the caller.
    public init(duplicating fileDescriptor: Int32) throws {
        let copy = fcntl(fileDescriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            throw BusError.invalid("Cannot duplicate file descriptor \(fileDescriptor): errno \(errno).")
        }
        self.fileDescriptor = copy
    }

    /// A new descriptor for the same open file, owned by the caller.
    public func duplicate() -> Int32 { fcntl(fileDescriptor, F_DUPFD_CLOEXEC, 0) }

    deinit { close(fileDescriptor) }

    public static func == (lhs: UnixFD, rhs: UnixFD) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "fd \(fileDescriptor)" }
}
