import AlmanacBus
import ArgumentParser
import DBus

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Says whether almanacd is reachable, and its version, documents and views.")

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let client = try await common.connect()
        do {
            let status = try await client.status()
            for line in common.rendering().status(status) { Terminal().line(line) }
            await client.connection.close()
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }
}
