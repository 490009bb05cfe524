import AlmanacBus
import AlmanacCore
import ArgumentParser
import DBus
import FoundationEssentials

struct Get: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Prints a document once: the weather or the newest podcast episodes.")

    @OptionGroup var scope: Scope
    @OptionGroup var units: UnitsOption
    @OptionGroup var common: CommonOptions

    var document: DocumentArgument { scope.document }
    var location: String? { scope.location }
    var podcast: String? { scope.podcast }

    func run() async throws {
        let client = try await common.connect()
        let rendering = common.rendering()
        do {
            var lines: [String]
            switch document.name {
            case .weather:
                var (revision, state) = try await WeatherLookup(client: client).state(for: location)
                units.apply(to: &state)
                lines = rendering.weather(state, only: location, revision: revision)
                if let location, state.readings[location] == nil, let failure = state.failures[location] {
                    await client.connection.close()
                    Terminal.error("no weather for '\(location)': \(failure)")
                    throw Exit.refused
                }
            case .podcasts:
                let (revision, fields) = try await client.state(of: .podcasts)
                lines = rendering.podcasts(PodcastsCodec.decodeState(fields), only: podcast, revision: revision)
            }
            for line in lines { Terminal().line(line) }
            await client.connection.close()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            await client.connection.close()
            throw fail(error)
        }
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
