import AlmanacBus
import AlmanacCore
import AlmanacViews
import ArgumentParser

struct Get: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Prints a document once: the weather or the newest podcast episodes.")

    @OptionGroup var scope: Scope
    @OptionGroup var units: UnitsOption
    @OptionGroup var common: CommonOptions

    var document: DocumentArgument { scope.document }
    var location: String? { scope.location }
    var podcast: String? { scope.podcast }

    func run() async throws {
        try await GetRequest(document: document.name, location: location, podcast: podcast, units: units.units?.units,
                             json: common.json, template: common.rendering().template,
                             address: common.address).perform()
    }
}

/// `weather` or `podcasts` on the command line.
struct DocumentArgument: ExpressibleByArgument {
    let name: DocumentName
    init?(argument: String) {
        guard let name = DocumentName(rawValue: argument) else { return nil }
        self.name = name
    }
    static var allValueStrings: [String] { DocumentName.allCases.map(\.rawValue) }
}
