import AlmanacBus
import AlmanacCore
import DBus
import ArgumentParser

/// `almanac weather [PLACE]`: now, today's range and the hours ahead, for a place or every saved one.
struct WeatherCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weather",
        abstract: "Shows the weather now, today's range and the next hours: for PLACE, or for every saved place."
    )

    @ArgumentParser.Argument(help: "A place name (Berlin) or coordinates (52.52,13.41). Default: the saved places.")
    var place: String?

    @OptionGroup var units: UnitsOption
    @OptionGroup var common: CommonOptions

    func run() async throws {
        let client = try await common.connect()
        do {
            let locations: [String]
            if let place {
                locations = [place]
            } else {
                locations = try await client.savedLocations()
                guard !locations.isEmpty else {
                    await client.connection.close()
                    Terminal.error("no place given and no saved places. Try `almanac weather Berlin`, or save one with `almanac locations add Berlin`.")
                    throw ExitCode(64)
                }
            }
            var (revision, state) = try await WeatherLookup(client: client).state(for: locations)
            units.apply(to: &state)
            for line in common.rendering().summary(state, locations: locations, revision: revision) { Terminal().line(line) }
            await client.connection.close()
            if let place, state.readings[place] == nil { throw Exit.refused }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }
}
