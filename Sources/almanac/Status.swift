import AlmanacWire
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
            let rendering = output.rendering()
            if rendering.json {
                Terminal().line(Rendering.json(status))
            } else if let template = rendering.template {
                Terminal().line(template.render(Self.view(status).fields))
            } else {
                for line in rendering.status(Self.view(status)) { Terminal().line(line) }
            }
            await client.connection.close()
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }

    /// What the daemon reported, worded for a person or a template.
    static func view(_ status: DaemonStatus) -> DaemonStatusViewData {
        DaemonStatusViewData(version: status.version, owner: status.owner, provider: status.provider, documents: status.documents.map {
            .init(name: $0.name, revision: $0.revision, viewCount: Int($0.viewCount), loading: $0.loading, lastError: $0.lastError)
        })
    }
}
