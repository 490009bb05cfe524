internal import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Payloads by descriptor: a sealed memory file holds bytes too large for a message, and the
// message carries only its descriptor (`h`). The sender writes and seals it; the receiver
// reads it, bounded, and cannot be surprised by it changing (docs/dbus-layer.md).
extension UnixFD {
    /// A new memory file (`memfd_create`) holding `bytes`, sealed against writing, shrinking,
    /// growing and further sealing, so whoever receives it reads exactly these bytes. The
    /// value owns the descriptor; `name` shows in `/proc/<pid>/fd` (at most 249 bytes).
    public static func sealedMemory(containing bytes: UnsafeRawBufferPointer, name: String = "dbus-payload") throws -> UnixFD {
        let descriptor = name.utf8.count <= 249 && !name.utf8.contains(0) ? cdbus_memfd_create(name) : -1
        guard descriptor >= 0 else {
            throw BusError(.failed, "Cannot create a memory file for \(bytes.count) bytes: \(Self.describeErrno()).")
        }
        let file = UnixFD(taking: descriptor)
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw BusError(.failed, "Cannot write \(bytes.count) bytes to a memory file: \(Self.describeErrno()).")
            }
            written += count
        }
        guard cdbus_seal_completely(descriptor) == 0 else {
            throw BusError(.failed, "Cannot seal a memory file: \(Self.describeErrno()).")
        }
        return file
    }

    /// A sealed memory file holding `bytes` (see `sealedMemory(containing:name:)` above).
    public static func sealedMemory(containing bytes: [UInt8], name: String = "dbus-payload") throws -> UnixFD {
        try bytes.withUnsafeBytes { try sealedMemory(containing: $0, name: name) }
    }

    /// Whether the file is sealed against writing, shrinking, growing and further sealing,
    /// as `sealedMemory` makes it: its content cannot change while it is read.
    public var isSealed: Bool { cdbus_fully_sealed(cdbus_seals(fileDescriptor)) != 0 }

    /// Every byte of the file, from its start whatever the descriptor's offset (it is shared
    /// with the sender's copies), read with `pread`: a sender that changes an unsealed file
    /// meanwhile changes what is read, never the reader's memory.
    ///
    /// Only regular files are read (memory files are), since reading a pipe, socket or
    /// terminal could wait forever on its writer. Throws `InvalidArgs` for anything else and
    /// `LimitsExceeded`, reading nothing, when the file holds more than `limit` bytes.
    public func readAll(limit: Int) throws -> [UInt8] {
        var status = stat()
        guard fstat(fileDescriptor, &status) == 0 else {
            throw BusError(.invalidArgs, "Cannot read the passed file descriptor: \(Self.describeErrno()).")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw BusError(.invalidArgs, "The passed descriptor is not a regular file (a pipe, socket or device could block the reader); pass a file or a memory file (memfd).")
        }
        let size = Int(status.st_size)
        guard size <= limit else {
            throw BusError(.limitsExceeded, "The passed file holds \(size) bytes, more than the \(limit) accepted.")
        }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialised in
            while initialised < size {
                let count = pread(fileDescriptor, buffer.baseAddress! + initialised, size - initialised, off_t(initialised))
                if count < 0, errno == EINTR { continue }
                if count < 0 { failure = errno }
                // 0: the file shrank while it was read; what there was is the answer.
                guard count > 0 else { break }
                initialised += count
            }
        }
        guard failure == 0 else {
            throw BusError(.invalidArgs, "Cannot read the passed file descriptor: \(String(cString: strerror(failure))).")
        }
        return bytes
    }

    private static func describeErrno() -> String { String(cString: strerror(errno)) }
}
