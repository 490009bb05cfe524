import AlmanacWire
import AlmanacViews
import AlmanacModels
import DBus
import ArgumentParser

/// `almanac locations list`.
struct LocationsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Prints the saved places, one per line.")

    @OptionGroup var output: OutputOptions<LocationFields>
    var common: CommonOptions { output.common }

    func run() async throws {
        let client = try await common.connect()
        do {
            let locations = try await client.savedLocations()
            await client.connection.close()
            if common.json {
                Terminal().line(Rendering.json(["locations": locations] as Rendering.JSONObject))
            } else if let template = output.rendering().template {
                for location in locations { Terminal().line(template.render(["location": location])) }
            } else if locations.isEmpty {
                Terminal().line("No saved places. Add one with `almanac locations add Berlin`.")
            } else {
                for line in common.rendering().locations(locations) { Terminal().line(line) }
            }
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }
}
