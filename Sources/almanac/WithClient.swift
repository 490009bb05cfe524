import AlmanacWire
import ArgumentParser
import DBus

/// Connects, runs `body`, closes the connection, and turns a failure into a message and an
/// exit status (`fail`) — the frame of every one-shot command.
func withClient(_ common: CommonOptions, _ body: (AlmanacClient) async throws -> Void) async throws {
    let client = try await common.connect()
    do {
        try await body(client)
        await client.connection.close()
    } catch {
        await client.connection.close()
        throw fail(error)
    }
}
