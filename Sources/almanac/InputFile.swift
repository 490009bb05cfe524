import DBus
import Glibc

/// A file given on the command line, opened to be passed to the daemon by descriptor
/// (`almanac podcasts import FILE`).
enum InputFile {
    /// The file opened for reading, or `nil` with `errno` set; a folder is refused here
    /// (`EISDIR`), as reading it would be. What is not a regular file (a pipe, `/dev/stdin`,
    /// `<(curl …)`) is read here and passed as a sealed memory file, since the daemon reads
    /// only files that cannot keep it waiting.
    static func descriptor(_ path: String) -> UnixFD? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        let file = UnixFD(taking: descriptor)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return file
        case S_IFDIR:
            errno = EISDIR
            return nil
        default:
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(descriptor, &chunk, chunk.count)
                if count < 0, errno == EINTR { continue }
                guard count >= 0 else { return nil }
                if count == 0 { break }
                bytes.append(contentsOf: chunk[0..<count])
            }
            return try? UnixFD.sealedMemory(containing: bytes, name: "almanac-input")
        }
    }
}
