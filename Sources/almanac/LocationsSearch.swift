import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser

/// `almanac locations search NAME [--count N] [--json]`: the places a name may mean, with
/// what tells them apart and the id that names each exactly.
struct LocationsSearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Lists the places a name may mean: region, country, coordinates, population and id.",
        discussion: "Any of them can then be given exactly: as `Springfield, Illinois`, `Springfield, US`, by its coordinates, or by its id (`almanac locations add id:4250542`)."
    )

    @ArgumentParser.Argument(help: "A place's name, such as Springfield.") var name: [String]
    @Option(help: "How many at most (1–100).") var count = 10
    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard (1...100).contains(count) else { throw ValidationError("--count goes from 1 to 100, not \(count).") }
        guard !name.joined().trimmed.isEmpty else { throw ValidationError("Say which name to look for, such as `almanac locations search Springfield`.") }
    }

    func run() async throws {
        let text = name.joined(separator: " ")
        try await withClient(common) { client in
            let places = try await client.searchPlaces(text, count: count).map(PlaceMatchViewData.init)
            if common.json {
                Terminal().line(Rendering.json(JSONValue.object(["places": .array(places.map(\.json))])))
                return
            }
            guard !places.isEmpty else {
                throw CLIError.refused("no place called '\(text)' was found", "check the spelling, or give coordinates such as 52.52,13.41")
            }
            for line in common.rendering().render(PlaceMatchViewData.table(places)) { Terminal().line(line) }
        }
    }
}
