import AlmanacWire
import AlmanacModels
import AlmanacViews
import DBus
import ArgumentParser
import FoundationEssentials

/// `almanac weather [PLACE]`: now, today's range and the hours ahead, for a place or every saved one.
struct WeatherCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weather",
        abstract: "Shows the weather now, today's range and the next hours: for PLACE, or for every saved place."
    )

    @ArgumentParser.Argument(help: "A place name (Berlin) or coordinates (52.52,13.41). Default: the saved places.")
    var place: String?

    @OptionGroup var units: UnitsOption
    @OptionGroup var output: OutputOptions<WeatherFields>
    var common: CommonOptions { output.common }

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
                    throw CLIError.usage("no place given and no saved places", "try `almanac weather Berlin`, or save one with `almanac locations add Berlin`")
                }
            }
            var (revision, state) = try await WeatherLookup(client: client).state(for: locations)
            await client.connection.close()
            units.apply(to: &state)
            // Places with a reading go to standard output; the others are errors, on standard error.
            let shown = locations.filter { state.readings[$0] != nil }
            if !shown.isEmpty {
                let screen = WeatherScreenViewData(state: state, locations: shown, now: clockNow(), clockOffset: localUTCOffset)
                for line in output.rendering().summary(screen, revision: revision) { Terminal().line(line) }
            }
            let failed = locations.filter { state.readings[$0] == nil }
            guard failed.isEmpty else {
                let reasons = failed.map { ("no weather for '\($0)': \(state.failures[$0] ?? "no reading yet")", WeatherLookup.hint(after: state.failures[$0], of: $0)) }
                for (reason, hint) in reasons.dropLast() { Terminal.error(reason, hint: hint) }
                throw CLIError.refused(reasons.last?.0 ?? "", reasons.last?.1 ?? "")
            }
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }
}
