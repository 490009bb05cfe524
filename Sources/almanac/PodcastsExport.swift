import AlmanacWire
import ArgumentParser
import DBus
import Glibc

/// `almanac podcasts export [-o FILE]`: the subscriptions as OPML.
struct PodcastsExport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Writes the subscriptions as OPML, to standard output or a file.")

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in
            let document = try await client.exportOPML()
            guard let output else {
                Terminal.write(STDOUT_FILENO, document)
                return
            }
            // Written beside the target and renamed over it, so a failure never leaves half a file.
            let temporary = output + ".almanac-partial"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            let bytes = Array(document.utf8)
            var written = 0
            while descriptor >= 0, written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                written += count
            }
            let complete = descriptor >= 0 && written == bytes.count && fsync(descriptor) == 0
            let closed = descriptor >= 0 && close(descriptor) == 0
            guard complete, closed, rename(temporary, output) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw CLIError(message: "cannot write '\(output)': \(reason)", hint: "choose a folder you can write to, or leave out -o to print to standard output", exit: 73)
            }
        }
    }
}
