import AlmanacWire
import AlmanacModels
import DBus
import ArgumentParser

/// `almanac locations add PLACE…`.
struct LocationsAdd: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Saves places; the daemon fetches them from now on.")

    @ArgumentParser.Argument(help: "Place names (Berlin) or coordinates (52.52,13.41).")
    var places: [String]

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let client = try await common.connect()
        do {
            for place in places { try await client.addLocation(place) }
            await client.connection.close()
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }
}
