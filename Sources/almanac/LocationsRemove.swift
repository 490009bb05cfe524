import AlmanacWire
import AlmanacModels
import DBus
import ArgumentParser

/// `almanac locations remove PLACE…`.
struct LocationsRemove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Forgets saved places.")

    @ArgumentParser.Argument(help: "Saved places, as `almanac locations list` prints them.")
    var places: [String]

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let client = try await common.connect()
        do {
            for place in places { try await client.removeLocation(place) }
            await client.connection.close()
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }
}
