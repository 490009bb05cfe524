import AlmanacBus
import AlmanacCore
import ArgumentParser
import DBus
import FoundationEssentials

struct Get: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Prints a document once: the weather or the newest podcast episodes.")

    @OptionGroup var scope: Scope
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
                var (revision, fields) = try await client.state(of: .weather)
                var state = WeatherCodec.decodeState(fields)
                if let location, state.readings[location] == nil {
                    // Nobody watches this place yet: watch it until the first answer.
                    (revision, fields) = try await firstUpdate(client, location: location)
                    state = WeatherCodec.decodeState(fields)
                }
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

    /// How old a reading may be and still answer `get` at once (Open-Meteo's own cadence).
    static let freshEnough: Double = 15 * 60

    /// Watches `location` until the first fresh reading or failure for it arrives (15 s at most).
    /// Returns the state taken while the view still stood (the daemon forgets places nobody watches).
    private func firstUpdate(_ client: AlmanacClient, location: String) async throws -> (revision: UInt64, state: [String: Value]) {
        let owner = try await client.startDaemon()
        let updates = try await client.updates(of: .weather, from: owner)
        let view = try await client.addView(.weather, options: ["location": .string(location)])
        let answered = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await message in updates where message.path == view {
                    guard let (_, data) = try? message.arguments(UInt64.self, [String: Value].self) else { continue }
                    guard data["location"]?.stringValue == location else { continue }
                    if data["kind"]?.stringValue == "failed" { return true }
                    // A last-known reading the daemon kept from before is shown only if no fresh one comes.
                    if data["kind"]?.stringValue == "reading", let reading = data["reading"].flatMap(WeatherCodec.decodeReading),
                       Date().timeIntervalSince(reading.fetchedAt) < Self.freshEnough { return true }
                }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(15))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        let snapshot = try await client.state(of: .weather)
        try? await client.removeView(.weather, view)
        guard answered || snapshot.state["readings"]?.stringKeyedEntries?[location] != nil else {
            await client.connection.close()
            Terminal.error("no reading for '\(location)' within 15 seconds; the provider may be slow or unreachable. Try again, or watch it with `almanac watch weather --location \(location)`.")
            throw Exit.refused
        }
        return snapshot
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
