#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a small file whole, never more than a bound: a file longer than `maximumBytes` is
/// not read further and gives `nil`, as does one that cannot be opened (a FIFO is not waited on).
enum SmallFile {
    static func bytes(at path: String, maximumBytes: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: maximumBytes + 1)
        var count = 0
        while count < buffer.count {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { break }
            count += read
        }
        guard count <= maximumBytes else { return nil }
        return Array(buffer[..<count])
    }
}
