import AlmanacBus
import AlmanacCore
import AlmanacViews
import ArgumentParser
import DBus

/// What `almanac get` does, whichever way its arguments were read: by ArgumentParser (`Get`)
/// or by the one-shot fast path (`OneShotGet`), so both print the same bytes.
struct GetRequest {
    var document: DocumentName
    var location: String?
    var podcast: String?
    var units: Units?
    var json = false
    var template: Template?
    var address: String?

    /// Prints the document once; failures are printed and thrown as an exit status.
    func perform() async throws {
        let client = try await CommonOptions.connect(address: address)
        let rendering = Rendering(terminal: Terminal(), template: template, json: json)
        do {
            var lines: [String]
            switch document {
            case .weather:
                var (revision, state) = try await WeatherLookup(client: client).state(for: location)
                if let units { state.units = units }
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
