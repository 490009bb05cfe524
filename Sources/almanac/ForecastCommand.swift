import AlmanacWire
import AlmanacModels
import AlmanacViews
import DBus
import ArgumentParser
import FoundationEssentials

/// `almanac forecast [PLACE] [--days N] [--hourly] [--hours N] [--graph]`: the days (or hours) ahead.
struct ForecastCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forecast",
        abstract: "Shows the forecast for the days ahead (or, with --hourly, the next 24 hours; with --graph, a picture of the next 48) for PLACE or the first saved place."
    )

    @ArgumentParser.Argument(help: "A place name (Berlin) or coordinates (52.52,13.41). Default: the first saved place.")
    var place: String?

    @Option(help: "How many days, 1 to 16 (the provider may have fewer).")
    var days = 7

    @Flag(help: "Show hours instead of days.")
    var hourly = false

    @Option(help: "How many hours from now, 1 to 384 (16 days; the provider may have fewer): a row each, or with --graph the hours drawn.")
    var hours: Int?

    @Flag(help: "Draw the hours ahead (48 unless --hours says): temperature as a line, precipitation's chance and amount as bars, where days begin.")
    var graph = false

    /// Hours shown when `--hours` is not given.
    static let defaultHours = 24
    static let defaultGraphHours = 48

    /// Rows (or columns of a picture) of hours rather than days.
    var showsHours: Bool { hourly || graph || hours != nil }

    @OptionGroup var units: UnitsOption
    @OptionGroup var output: OutputOptions<ForecastFields>
    var common: CommonOptions { output.common }

    func validate() throws {
        _ = try output.template(fields: showsHours ? HourViewData.fieldNames : DayViewData.fieldNames)
        guard (1...16).contains(days) else { throw ValidationError("--days goes from 1 to 16, not \(days).") }
        if let hours, !(1...WeatherReading.maximumHours).contains(hours) {
            throw ValidationError("--hours goes from 1 to \(WeatherReading.maximumHours) (16 days, all the provider gives), not \(hours).")
        }
    }

    func run() async throws {
        let client = try await common.connect()
        do {
            let location: String
            if let place {
                location = place
            } else if let first = try await client.savedLocations().first {
                location = first
            } else {
                await client.connection.close()
                throw CLIError.usage("no place given and no saved places", "try `almanac forecast Berlin`, or save one with `almanac locations add Berlin`")
            }
            let hourCount = hours ?? (graph ? Self.defaultGraphHours : Self.defaultHours)
            var (_, state) = try await WeatherLookup(client: client).state(for: location, hours: showsHours ? hourCount : 0)
            units.apply(to: &state)
            await client.connection.close()
            guard let reading = state.readings[location] else {
                throw CLIError.refused("no forecast for '\(location)': \(state.failures[location] ?? "no reading yet")",
                                       WeatherLookup.hint(after: state.failures[location], of: location))
            }
            let view = ForecastViewData(reading: reading, units: ShownUnits(state: state), days: days, hours: hourCount, now: clockNow())
            for line in output.rendering().forecast(view, hourly: showsHours, graph: graph) { Terminal().line(line) }
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }
}
