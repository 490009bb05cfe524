import AlmanacBus
import AlmanacViews
import ArgumentParser
import DBus

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Says whether almanacd is reachable, and its version, documents and views.")

    @OptionGroup var output: OutputOptions<StatusFields>
    var common: CommonOptions { output.common }

    func run() async throws {
        let client = try await common.connect()
        do {
            let status = try await client.status()
            if let template = output.rendering().template {
                Terminal().line(template.render(Self.fields(status)))
            } else {
                for line in output.rendering().status(status) { Terminal().line(line) }
            }
            await client.connection.close()
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }

    /// The daemon as `--format` sees it: `views` in all documents, the documents `loading`,
    /// and the last `error` of each that has one ("weather: …").
    static func fields(_ status: DaemonStatus) -> [String: String] {
        [
            "version": status.version, "owner": status.owner, "provider": status.provider,
            "views": String(status.documents.reduce(0) { $0 + Int($1.viewCount) }),
            "loading": status.documents.filter(\.loading).map(\.name).joined(separator: ", "),
            "error": status.documents.filter { !$0.lastError.isEmpty }.map { "\($0.name): \($0.lastError)" }.joined(separator: "; "),
        ]
    }
}
