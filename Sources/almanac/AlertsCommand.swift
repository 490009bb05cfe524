import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser
import DBus
import FoundationEssentials

/// `almanac alerts [PLACE…]`: the official alerts in force at each place, or at every saved one.
struct AlertsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract: "Shows the official weather alerts in force at each PLACE, or at every saved place."
    )

    @ArgumentParser.Argument(help: "Place names (Berlin) or coordinates (52.52,13.41). Default: the saved places.")
    var places: [String] = []

    @OptionGroup var output: OutputOptions<AlertFields>
    var common: CommonOptions { output.common }

    func run() async throws {
        let client = try await common.connect()
        do {
            var locations = places
            if locations.isEmpty {
                locations = try await client.savedLocations()
                guard !locations.isEmpty else {
                    await client.connection.close()
                    throw CLIError.usage("no place given and no saved places", "try `almanac alerts Oslo`, or save one with `almanac locations add Oslo`")
                }
            }
            let (revision, state) = try await WeatherLookup(client: client).state(for: locations)
            await client.connection.close()
            let rendering = output.rendering()
            for line in rendering.alerts(state, locations: locations, revision: revision) { Terminal().line(line) }
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }
}
