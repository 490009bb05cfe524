import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser
import FoundationEssentials
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
        do {
            switch document {
            case .weather:
                let (revision, state) = try await WeatherLookup(client: client).state(for: location)
                await client.connection.close()
                try show(weather: state, revision: revision)
            case .podcasts:
                let (revision, fields) = try await client.state(of: .podcasts)
                await client.connection.close()
                try show(podcasts: fields, revision: revision)
            }
        } catch {
            await client.connection.close()
            throw fail(error)
        }
    }

    /// The same on the calling thread, with one blocking `GetState` and no tasks or event
    /// loop — unless the place asked for has no reading yet, which needs a view and waiting:
    /// then nothing is printed and it returns `false` for `perform()` to do it all.
    func performBlocking() throws -> Bool {
        let client: BlockingClient
        do {
            client = try BlockingClient(address: address)
        } catch let error as BusError {
            throw CommonOptions.unreachable(error)
        }
        do {
            switch document {
            case .weather:
                let (revision, fields) = try client.state(of: .weather)
                let state = try WireCoding.decode(WeatherState.self, fromFields: fields)
                if let location, state.readings[location] == nil, state.failures[location] == nil { return false }
                try show(weather: state, revision: revision)
            case .podcasts:
                let (revision, fields) = try client.state(of: .podcasts)
                try show(podcasts: fields, revision: revision)
            }
            return true
        } catch {
            throw fail(error)
        }
    }

    /// Prints the weather in the units asked for, or why the provider refused the place asked for.
    private func show(weather state: WeatherState, revision: UInt64) throws {
        if let location, state.readings[location] == nil, let failure = state.failures[location] {
            throw CLIError.refused("no weather for '\(location)': \(failure)", WeatherLookup.hint(after: failure, of: location))
        }
        var state = state
        if let units { state.units = units }
        print(rendering.weather(WeatherScreenViewData(state: state, locations: location.map { [$0] }, now: clockNow(), clockOffset: localUTCOffset), revision: revision))
    }

    private func show(podcasts fields: [String: Value], revision: UInt64) throws {
        print(rendering.episodes(EpisodeListViewData(state: try WireCoding.decode(PodcastsState.self, fromFields: fields), podcast: podcast, limit: 10, now: clockNow(), clockOffset: localUTCOffset), revision: revision))
    }

    private var rendering: Rendering { Rendering(terminal: Terminal(), template: template, json: json) }

    private func print(_ lines: [String]) {
        for line in lines { Terminal().line(line) }
    }
}
