import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser

struct Get: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Prints a document once: the weather or the newest podcast episodes.")

    @OptionGroup var scope: Scope
    @OptionGroup var units: UnitsOption
    @OptionGroup var output: OutputOptions<DocumentFields>
    var common: CommonOptions { output.common }

    var document: DocumentArgument { scope.document }
    var location: String? { scope.location }
    var podcast: String? { scope.podcast }

    func validate() throws {
        if document.playing { throw ValidationError("`get` takes weather or podcasts; `almanac watch playing` follows what plays.") }
        _ = try output.template(fields: DocumentFields.names(for: document.name))
    }

    func run() async throws {
        try await GetRequest(document: document.name, location: location, podcast: podcast, units: units.units?.units,
                             json: common.json, template: output.rendering().template,
                             address: common.address).perform()
    }
}

/// `weather` or `podcasts` on the command line, or for `watch`, `playing` (what a media player
/// plays: no document, the player object).
struct DocumentArgument: ExpressibleByArgument {
    let name: DocumentName
    /// `playing`: `name` is then `podcasts`, the document its episodes are of.
    let playing: Bool
    init?(argument: String) {
        if argument == "playing" {
            (name, playing) = (.podcasts, true)
            return
        }
        guard let name = DocumentName(rawValue: argument) else { return nil }
        (self.name, playing) = (name, false)
    }
    static var allValueStrings: [String] { DocumentName.allCases.map(\.rawValue) + ["playing"] }
}
